#!/usr/bin/env node
// Checks a packaged .vsix (a zip): the manifest, the compiled extension, the contributions that make
// breakpoints work in GLSL files, and that no sources or node_modules were packed. Exit 1 on failure.
'use strict';
const fs = require('fs');
const zlib = require('zlib');

function readZip(file) {
    const buf = fs.readFileSync(file);
    // End of central directory: signature 0x06054b50 within the last 64 KiB + 22 bytes.
    let eocd = -1;
    for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65557); i--) {
        if (buf.readUInt32LE(i) === 0x06054b50) { eocd = i; break; }
    }
    if (eocd < 0) throw new Error('not a zip file (no end of central directory)');
    const count = buf.readUInt16LE(eocd + 10);
    let p = buf.readUInt32LE(eocd + 16);
    const entries = new Map();
    for (let k = 0; k < count; k++) {
        if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error('corrupt central directory');
        const method = buf.readUInt16LE(p + 10);
        const csize = buf.readUInt32LE(p + 20);
        const nlen = buf.readUInt16LE(p + 28), xlen = buf.readUInt16LE(p + 30), clen = buf.readUInt16LE(p + 32);
        const local = buf.readUInt32LE(p + 42);
        const name = buf.toString('utf8', p + 46, p + 46 + nlen);
        const lnlen = buf.readUInt16LE(local + 26), lxlen = buf.readUInt16LE(local + 28);
        const data = buf.subarray(local + 30 + lnlen + lxlen, local + 30 + lnlen + lxlen + csize);
        entries.set(name, () => (method === 8 ? zlib.inflateRawSync(data) : data));
        p += 46 + nlen + xlen + clen;
    }
    return entries;
}

function main() {
    const file = process.argv[2];
    if (!file) { console.error('usage: check_vsix.js FILE.vsix'); process.exit(2); }
    const entries = readZip(file);
    const errors = [];
    const need = ['extension.vsixmanifest', '[Content_Types].xml', 'extension/package.json',
                  'extension/out/extension.js', 'extension/out/sockets.js', 'extension/out/profile.js',
                  'extension/out/profile_view.js', 'extension/out/pixel.js', 'extension/out/pixel_view.js',
                  'extension/out/warp.js', 'extension/out/warp_view.js',
                  'extension/out/frame.js', 'extension/out/frame_view.js',
                  'extension/README.md',
                  'extension/language-configuration.json'];
    for (const n of need) if (!entries.has(n)) errors.push(`missing ${n}`);
    for (const n of entries.keys())
        if (n.startsWith('extension/src/') || n.startsWith('extension/node_modules/') || n.endsWith('.ts'))
            errors.push(`should not be packaged: ${n}`);
    if (entries.has('extension/package.json')) {
        const pkg = JSON.parse(entries.get('extension/package.json')().toString());
        const dbg = (pkg.contributes.debuggers || []).find(d => d.type === 'glreplay');
        if (!dbg) errors.push('no debugger of type glreplay');
        else {
            if (!dbg.configurationAttributes.attach) errors.push('no attach configuration');
            if (!dbg.configurationAttributes.launch) errors.push('no launch configuration');
        }
        if (!(pkg.contributes.breakpoints || []).some(b => b.language === 'glsl')) errors.push('breakpoints not allowed in glsl');
        const lang = (pkg.contributes.languages || []).find(l => l.id === 'glsl');
        const exts = ['.glsl', '.vert', '.frag', '.geom', '.comp', '.tesc', '.tese', '.vs', '.fs'];
        if (!lang) errors.push('no glsl language');
        else for (const e of exts) if (!lang.extensions.includes(e)) errors.push(`glsl language lacks ${e}`);
        if (pkg.main !== './out/extension.js') errors.push(`main is ${pkg.main}`);
        // "glreplay: Profile frame" (the glreplay/profile request) in a glreplay debug session.
        const cmds = (pkg.contributes.commands || []).map(c => c.command);
        for (const c of ['glreplay.profileFrame', 'glreplay.profileHotspots', 'glreplay.profileClear'])
            if (!cmds.includes(c)) errors.push(`command ${c} not contributed`);
        const palette = ((pkg.contributes.menus || {}).commandPalette || []).find(m => m.command === 'glreplay.profileFrame');
        if (!palette || !/debugType == 'glreplay'/.test(palette.when || '')) errors.push('glreplay.profileFrame not offered in glreplay debug sessions');
        // "glreplay: Pixel history" and its view in the Run and Debug side bar, "Debug" per entry.
        for (const c of ['glreplay.pixelHistory', 'glreplay.debugPixel'])
            if (!cmds.includes(c)) errors.push(`command ${c} not contributed`);
        if (!((pkg.contributes.views || {}).debug || []).some(v => v.id === 'glreplayPixelHistory'))
            errors.push('no glreplayPixelHistory view in the debug container');
        if (!((pkg.contributes.menus || {})['view/item/context'] || []).some(m => m.command === 'glreplay.debugPixel'))
            errors.push('glreplay.debugPixel not offered on the pixel history entries');
        // "glreplay: Frame view" (thumbnails per event, a pixel's history, Debug).
        if (!cmds.includes('glreplay.frameView')) errors.push('command glreplay.frameView not contributed');
    }
    if (entries.has('extension/out/frame.js')) {
        const js = entries.get('extension/out/frame.js')().toString();
        if (!js.includes("'glreplay/eventImages'")) errors.push('frame.js does not send glreplay/eventImages');
    }
    if (entries.has('extension/out/extension.js')) {
        const js = entries.get('extension/out/extension.js')().toString();
        if (!js.includes('DebugAdapterNamedPipeServer')) errors.push('extension.js does not create a DebugAdapterNamedPipeServer');
    }
    if (entries.has('extension/out/profile.js')) {
        const js = entries.get('extension/out/profile.js')().toString();
        if (!js.includes("customRequest('glreplay/profile'")) errors.push('profile.js does not send glreplay/profile');
    }
    if (entries.has('extension/out/pixel.js')) {
        const js = entries.get('extension/out/pixel.js')().toString();
        for (const r of ['glreplay/pixelHistory', 'glreplay/debugPixel'])
            if (!js.includes(`'${r}'`)) errors.push(`pixel.js does not send ${r}`);
    }
    if (entries.has('extension.vsixmanifest')) {
        const m = entries.get('extension.vsixmanifest')().toString();
        if (!m.includes('Id="glreplay"')) errors.push('manifest does not name the extension glreplay');
    }
    if (errors.length) {
        for (const e of errors) console.error(`check_vsix: ${e}`);
        process.exit(1);
    }
    console.log(`check_vsix: ${file}: ${entries.size} files, all checks passed`);
}

main();
