// Shared by the DAP tests that run `glreplay dap --socket` on a capture and talk to it with
// Microsoft's test client over the Unix socket: start the server and wait for its socket, stop it
// (it must exit 0), connect and complete initialize.
'use strict';
const assert = require('assert');
const cp = require('child_process');
const fs = require('fs');
const path = require('path');

module.exports = function dapSocketServer(glreplay, UnixDebugClient) {
    // The socket is tmp/[name/]dap.sock: a test that runs several servers gives each its own name.
    // extraEnv is added to this process's environment for the server only.
    async function server(capture, tmp, name = '', extraEnv = {}) {
        const sock = path.join(tmp, name, 'dap.sock');
        const proc = cp.spawn(glreplay, ['dap', '--socket', sock, capture],
                              { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...extraEnv } });
        let log = '';
        proc.stdout.on('data', d => { log += d; });
        proc.stderr.on('data', d => { log += d; });
        const exit = new Promise(r => proc.on('exit', (code, sig) => r({ code, sig })));
        for (let i = 0; i < 300 && !fs.existsSync(sock); i++) await new Promise(r => setTimeout(r, 50));
        assert.ok(fs.existsSync(sock), `no socket: ${log}`);
        return { sock, log: () => log, stop: async () => {
            proc.kill('SIGTERM');
            const ex = await exit;
            assert.strictEqual(ex.code, 0, `server exit ${JSON.stringify(ex)}: ${log}`);
        } };
    }

    // Resolves with the client and the initialize response once the adapter sent 'initialized'.
    async function connectInit(sock, timeout = 60000) {
        const dc = new UnixDebugClient(sock);
        dc.defaultTimeout = timeout;
        // The socket file exists from bind(); until listen() a connect is refused: retry briefly.
        for (let i = 0; ; i++) {
            try { await dc.start(); break; } catch (e) {
                if (i >= 50 || e.code !== 'ECONNREFUSED') throw e;
                await new Promise(r => setTimeout(r, 50));
            }
        }
        const initialized = dc.waitForEvent('initialized');
        const init = await dc.initializeRequest();
        await initialized;
        return { dc, init };
    }

    async function connect(sock, timeout) {
        return (await connectInit(sock, timeout)).dc;
    }

    return { server, connect, connectInit };
};
