// Starts `wfl lsp` for the .wfl files of the workspace (editors/README.md).
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration('wfl').get('path') || 'wfl';
  const server = { command, args: ['lsp'] };
  client = new LanguageClient('wfl', 'wfl', server, {
    documentSelector: [{ scheme: 'file', language: 'wfl' }, { scheme: 'untitled', language: 'wfl' }],
  });
  client.start();
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
