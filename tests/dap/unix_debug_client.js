'use strict';
// DebugClient (npm @vscode/debugadapter-testsupport) speaks stdio or TCP; this subclass connects it
// to a Unix socket, as VS Code's DebugAdapterNamedPipeServer does. `check`, when given, sees every
// message the adapter sends before DebugClient handles it.
const net = require('net');
const path = require('path');

module.exports = function makeUnixDebugClient(nodeModules, check) {
    const { DebugClient } = require(path.join(nodeModules, '@vscode/debugadapter-testsupport'));
    return class UnixDebugClient extends DebugClient {
        constructor(socketPath) {
            super('node', 'unused', 'glreplay');
            this.socketPath = socketPath;
            this.outputs = [];
            this.on('output', e => this.outputs.push(e.body.output));
        }
        // Not this._socket: DebugClient disables its timeouts when that is set.
        start() {
            return new Promise((resolve, reject) => {
                this.unixSocket = net.createConnection(this.socketPath, () => {
                    this.connect(this.unixSocket, this.unixSocket);
                    resolve();
                });
                this.unixSocket.on('error', reject);
            });
        }
        stopAdapter() {
            if (this.unixSocket) {
                this.unixSocket.end();
                this.unixSocket = null;
            }
        }
        dispatch(body) {
            if (check)
                check(JSON.parse(body));
            super.dispatch(body);
        }
    };
};
