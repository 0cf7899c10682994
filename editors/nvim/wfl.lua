-- wfl for Neovim (0.7 or later): *.wfl files get the filetype 'wfl', and `wfl lsp` starts for
-- them with Neovim's own LSP client. Put this file in ~/.config/nvim/plugin/ (or :source it).
vim.api.nvim_create_autocmd({ "BufRead", "BufNewFile" }, { pattern = "*.wfl", command = "setfiletype wfl" })

local client_id -- Neovim 0.7: one client, attached to every wfl buffer

vim.api.nvim_create_autocmd("FileType", {
  pattern = "wfl",
  callback = function(args)
    vim.bo[args.buf].commentstring = "// %s"
    local config = {
      name = "wfl",
      cmd = { "wfl", "lsp" },
      root_dir = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(args.buf), ":p:h"),
    }
    if vim.lsp.start then -- Neovim 0.8 and later: reuses a running client
      vim.lsp.start(config, { bufnr = args.buf })
    else
      client_id = client_id or vim.lsp.start_client(config)
      if client_id then vim.lsp.buf_attach_client(args.buf, client_id) end
    end
  end,
})
