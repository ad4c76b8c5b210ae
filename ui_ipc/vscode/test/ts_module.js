// Shared by the view unit tests (test/*_view.test.js): they run the extension's TypeScript under
// plain Node, transpiled in memory with the project's typescript module
// (ui_ipc/vscode/node_modules, or $NODE_MODULES). Without that module the calling test is skipped
// (exit 77), naming itself.
'use strict';
const fs = require('fs');
const path = require('path');
const Module = require('module');

module.exports = function tsModule(testName) {
    const modules = process.env.NODE_MODULES || path.join(__dirname, '..', 'node_modules');
    let ts;
    try {
        ts = require(path.join(modules, 'typescript'));
    } catch {
        console.log(`${testName}: SKIP: no typescript module in ${modules} (run tests/setup.sh, or npm ci in ui_ipc/vscode)`);
        process.exit(77);
    }

    // Loads a src/*.ts module; `stubs` maps module names (e.g. 'vscode') to objects it gets instead.
    // Its own relative imports are loaded the same way, with the same stubs.
    function load(file, stubs = {}) {
        const src = fs.readFileSync(file, 'utf8');
        const out = ts.transpileModule(src, {
            compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020, strict: true },
            reportDiagnostics: true, fileName: file,
        });
        if (out.diagnostics && out.diagnostics.length) {
            throw new Error(out.diagnostics.map(d => ts.flattenDiagnosticMessageText(d.messageText, '\n')).join('\n'));
        }
        const m = new Module(file, module);
        m.filename = file;
        m.paths = Module._nodeModulePaths(path.dirname(file));
        m.require = name => {
            if (name in stubs) return stubs[name];
            if (name.startsWith('./')) return load(path.join(path.dirname(file), name + '.ts'), stubs);
            return require(name);
        };
        m._compile(out.outputText, file);
        return m.exports;
    }

    return { load };
};
