-- A real editor as the client of `jitlint server` (tests/test_neovim.py): Neovim's own LSP client opens a file,
-- waits for jitlint's diagnostics, reads them with vim.diagnostic.get(), asks for the quick fixes on the line of
-- the diagnostic named by JITLINT_FIX_CODE and applies the first one, then writes what it saw as JSON.
local out = {diagnostics = {}, fixed_line = vim.NIL, actions = {}}
local client_id = vim.lsp.start_client({
  cmd = {vim.env.JITLINT_PYTHON, "-m", "jitlint", "server"},
  root_dir = vim.env.JITLINT_ROOT,
  name = "jitlint",
})
vim.cmd("edit " .. vim.fn.fnameescape(vim.env.JITLINT_FILE))
local buffer = vim.api.nvim_get_current_buf()
vim.lsp.buf_attach_client(buffer, client_id)
out.received = vim.wait(120000, function() return #vim.diagnostic.get(buffer) > 0 end, 50)
local client = vim.lsp.get_client_by_id(client_id)
out.offset_encoding = client and client.offset_encoding or vim.NIL
for _, d in ipairs(vim.diagnostic.get(buffer)) do
  table.insert(out.diagnostics, {lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col,
                                 code = d.code, severity = d.severity, source = d.source})
  if d.code == vim.env.JITLINT_FIX_CODE and client then
    local line = vim.api.nvim_buf_get_lines(buffer, d.lnum, d.lnum + 1, false)[1]
    -- d.col counts bytes; the request counts in the negotiated encoding
    local character = d.col
    if client.offset_encoding ~= "utf-8" then
      local utf32, utf16 = vim.str_utfindex(line, d.col)
      character = client.offset_encoding == "utf-32" and utf32 or utf16
    end
    local position = {line = d.lnum, character = character}
    local response = client.request_sync("textDocument/codeAction", {
      textDocument = {uri = vim.uri_from_bufnr(buffer)},
      range = {start = position, ["end"] = position},
      context = {diagnostics = {}},
    }, 30000, buffer)
    local actions = response and response.result or {}
    for _, action in ipairs(actions) do table.insert(out.actions, action.title) end
    if actions[1] then
      vim.lsp.util.apply_workspace_edit(actions[1].edit, client.offset_encoding)
      out.fixed_line = vim.api.nvim_buf_get_lines(buffer, d.lnum, d.lnum + 1, false)[1]
    end
  end
end
local file = io.open(vim.env.JITLINT_OUT, "w")
file:write(vim.fn.json_encode(out))
file:close()
vim.cmd("qa!")
