-- wfl for Neovim (0.8 or later): *.wfl files get the filetype 'wfl', and `wfl lsp` starts for
-- them with Neovim's own LSP client. Put this file in ~/.config/nvim/plugin/ (or :source it).
vim.filetype.add({ extension = { wfl = "wfl" } })

vim.api.nvim_create_autocmd("FileType", {
  pattern = "wfl",
  callback = function(args)
    vim.bo[args.buf].commentstring = "// %s"
    vim.lsp.start({
      name = "wfl",
      cmd = { "wfl", "lsp" },
      root_dir = vim.fs.dirname(vim.api.nvim_buf_get_name(args.buf)),
    })
  end,
})
