-- Neovim's own LSP client against `wfl lsp` (run by .ci/nvim-check): opens a .wfl file that has a
-- mistake, waits for the diagnostic the server publishes, fixes the mistake, waits for the
-- diagnostics to clear, asks the server to format the buffer, and writes what it saw to
-- $WFL_RESULT: one "diagnostic LINE:COL SEVERITY MESSAGE" line per diagnostic, then "formatted:"
-- and the buffer's lines. Works with Neovim 0.7 (Debian's) and later.
local wfl = os.getenv("WFL_BIN")
local file = os.getenv("WFL_SAMPLE")
local result = os.getenv("WFL_RESULT")
local out = {}

local function finish()
  local f = assert(io.open(result, "w"))
  f:write(table.concat(out, "\n") .. "\n")
  f:close()
  vim.cmd("qall!")
end

vim.cmd("edit " .. file)
local buf = vim.api.nvim_get_current_buf()
local client = vim.lsp.start_client({
  name = "wfl",
  cmd = { wfl, "lsp" },
  root_dir = vim.fn.fnamemodify(file, ":p:h"),
})
if not client then
  table.insert(out, "error: the client did not start")
  return finish()
end
vim.lsp.buf_attach_client(buf, client)

-- The mistake as opened.
if not vim.wait(20000, function() return #vim.diagnostic.get(buf) > 0 end, 20) then
  table.insert(out, "error: no diagnostics within 20 s")
  return finish()
end
for _, d in ipairs(vim.diagnostic.get(buf)) do
  table.insert(out, string.format("diagnostic %d:%d %s %s", d.lnum + 1, d.col + 1, d.severity, (d.message:gsub("\n", " | "))))
end

-- Fixed: the diagnostics go away.
local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
for k, line in ipairs(lines) do
  lines[k] = line:gsub("colums", "columns")
end
vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
if not vim.wait(20000, function() return #vim.diagnostic.get(buf) == 0 end, 20) then
  table.insert(out, "error: the diagnostics stayed after the fix")
  return finish()
end
table.insert(out, "fixed: no diagnostics")

-- Formatting, as :lua vim.lsp.buf.formatting_sync() (0.7) or vim.lsp.buf.format() (0.8+) does it.
if vim.lsp.buf.format then
  vim.lsp.buf.format({ bufnr = buf, timeout_ms = 10000 })
else
  vim.lsp.buf.formatting_sync(nil, 10000)
end
table.insert(out, "formatted:")
for _, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
  table.insert(out, line)
end
finish()
