// Where glreplay puts its sockets (see ARCHITECTURE.md, "Shim environment"): one per program
// under the shim, $XDG_RUNTIME_DIR/glreplay/<pid>.sock, or /tmp/glreplay-<uid>/ when
// XDG_RUNTIME_DIR is unset. No vscode import: unit-testable under plain Node.
import * as fs from 'fs';
import * as net from 'net';
import * as path from 'path';

export function socketDirs(env: NodeJS.ProcessEnv = process.env): string[] {
    const dirs: string[] = [];
    if (env.XDG_RUNTIME_DIR) {
        dirs.push(path.join(env.XDG_RUNTIME_DIR, 'glreplay'));
    }
    const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
    dirs.push(`/tmp/glreplay-${uid}`);
    return dirs;
}

export interface SocketEntry {
    path: string;
    mtime: Date;
}

// Every socket file in the glreplay directories, newest first.
export function listSockets(env: NodeJS.ProcessEnv = process.env): SocketEntry[] {
    const out: SocketEntry[] = [];
    for (const dir of socketDirs(env)) {
        let names: string[];
        try {
            names = fs.readdirSync(dir);
        } catch {
            continue;
        }
        for (const name of names) {
            if (!name.endsWith('.sock')) {
                continue;
            }
            const full = path.join(dir, name);
            try {
                const st = fs.statSync(full);
                if (st.isSocket()) {
                    out.push({ path: full, mtime: st.mtime });
                }
            } catch {
                // vanished between readdir and stat
            }
        }
    }
    return out.sort((a, b) => b.mtime.getTime() - a.mtime.getTime());
}

// Whether a program still listens on socket `p`: 'live' (it accepts), 'stale' (connect is refused:
// nobody listens, its program died, e.g. killed by a signal) or 'unknown' (no answer in time, or
// another error: listed, never removed). The probe connection is closed at once; the program's
// server reads nothing from it and closes it.
export function probeSocket(p: string, timeoutMs = 1000): Promise<'live' | 'stale' | 'unknown'> {
    return new Promise(resolve => {
        const s = net.createConnection(p);
        const done = (r: 'live' | 'stale' | 'unknown') => {
            clearTimeout(t);
            s.destroy();
            resolve(r);
        };
        const t = setTimeout(() => done('unknown'), timeoutMs);
        s.on('connect', () => done('live'));
        s.on('error', (e: NodeJS.ErrnoException) =>
            done(e.code === 'ECONNREFUSED' ? 'stale' : e.code === 'ENOENT' ? 'stale' : 'unknown'));
    });
}

// The sockets of listSockets that a program still listens on. Stale ones (refused) are removed from
// the glreplay directories, as the shim does for its own directory when it starts, so the attach
// picker never offers a dead program.
export async function listLiveSockets(env: NodeJS.ProcessEnv = process.env): Promise<SocketEntry[]> {
    const all = listSockets(env);
    const states = await Promise.all(all.map(e => probeSocket(e.path)));
    const live: SocketEntry[] = [];
    all.forEach((e, i) => {
        if (states[i] === 'stale') {
            try {
                if (fs.lstatSync(e.path).isSocket()) {
                    fs.unlinkSync(e.path);
                }
            } catch {
                // already gone
            }
        } else {
            live.push(e);
        }
    });
    return live;
}

// A fresh socket path for a launch (sun_path is 108 bytes: keep it short).
export function launchSocketPath(env: NodeJS.ProcessEnv = process.env): string {
    const dir = socketDirs(env)[0];
    return path.join(dir, `vscode-${process.pid}-${Date.now() % 100000}.sock`);
}

// Resolves once `p` is a socket, rejects after timeoutMs.
export function waitForSocket(p: string, timeoutMs: number): Promise<void> {
    const start = Date.now();
    return new Promise((resolve, reject) => {
        const tick = () => {
            try {
                if (fs.statSync(p).isSocket()) {
                    resolve();
                    return;
                }
            } catch {
                // not there yet
            }
            if (Date.now() - start > timeoutMs) {
                reject(new Error(`glreplay did not create ${p} within ${timeoutMs} ms`));
                return;
            }
            setTimeout(tick, 100);
        };
        tick();
    });
}
