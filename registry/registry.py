"""Parse the Khronos registry XML (gl.xml, glx.xml, egl.xml) into commands and types.

Shared by the code generators: the command tables (registry) and the shim's wrappers.
Nothing here is hand-listed: every command and type comes from the XML.
"""
import re
import xml.etree.ElementTree as ET

# Placeholder types the XML names but does not define (old SGI video/media types). They are only
# ever passed by value as handles, so a pointer-sized opaque type keeps the ABI.
OPAQUE_PLACEHOLDERS = {'DMbuffer', 'DMparams', 'VLServer', 'VLPath', 'VLNode'}


class Param:
    __slots__ = ('name', 'ctype', 'ptype', 'length', 'group', 'is_pointer', 'is_const', 'obj_class')

    def __init__(self, name, ctype, ptype, length, group, obj_class=None):
        self.name = name
        self.ctype = ctype          # full C type text, e.g. "const GLfloat *"
        self.ptype = ptype          # base type name, e.g. "GLfloat" (None for plain C types)
        self.length = length        # registry len attribute or None
        self.group = group
        self.is_pointer = '*' in ctype or '[' in ctype
        self.is_const = self.is_pointer and 'const' in ctype.split('*')[0]
        self.obj_class = obj_class  # registry "class": the kind of GL object name it holds


class Command:
    __slots__ = ('name', 'api', 'ret', 'params', 'alias', 'ret_class')

    def __init__(self, name, api, ret, params, alias, ret_class=None):
        self.name = name
        self.api = api              # 'gl', 'glx' or 'egl' (the registry file)
        self.ret = ret              # C return type text ("void" for none)
        self.params = params
        self.alias = alias
        self.ret_class = ret_class


def _text_of(elem):
    """All text of an element with child tags flattened, whitespace normalised."""
    s = ''.join(elem.itertext())
    return re.sub(r'\s+', ' ', s).strip()


def _decl_type(elem):
    """The C type of a <proto> or <param>: its text without the trailing <name>."""
    parts = []
    if elem.text:
        parts.append(elem.text)
    for child in elem:
        if child.tag == 'name':
            break
        parts.append(''.join(child.itertext()))
        if child.tail:
            parts.append(child.tail)
    t = re.sub(r'\s+', ' ', ''.join(parts)).strip()
    t = re.sub(r'\s*\*\s*', ' *', t).replace(' *', ' *')
    return t


def _array_suffix(elem):
    name = elem.find('name')
    tail = (name.tail or '').strip() if name is not None else ''
    return tail  # e.g. "[4]" for some GLX/EGL params


def parse_commands(path, api):
    root = ET.parse(path).getroot()
    out = []
    for cmds in root.iter('commands'):
        for c in cmds.findall('command'):
            proto = c.find('proto')
            name = proto.find('name').text
            ret = _decl_type(proto) or 'void'
            params = []
            for p in c.findall('param'):
                pname = p.find('name').text
                ctype = _decl_type(p)
                suffix = _array_suffix(p)
                if suffix.startswith('['):
                    # An array parameter decays to a pointer.
                    ctype = ctype + ' *'
                pt = p.find('ptype')
                params.append(Param(pname, ctype, pt.text if pt is not None else None,
                                    p.get('len'), p.get('group'), p.get('class')))
            alias = c.find('alias')
            out.append(Command(name, api, ret, params, alias.get('name') if alias is not None else None,
                               proto.get('class')))
    return out


def type_definitions(path):
    """C text of every <type> with a definition, in registry order, plus opaque placeholders."""
    root = ET.parse(path).getroot()
    defs = []
    for types in root.iter('types'):
        for t in types.findall('type'):
            name = t.get('name') or (t.find('name').text if t.find('name') is not None else None)
            if name in OPAQUE_PLACEHOLDERS:
                defs.append((name, 'typedef void *%s;' % name))
                continue
            text = ''.join(t.itertext()).strip()
            if not text:
                continue
            # <apientry/> carries no text; on Linux it expands to nothing.
            defs.append((name, text))
    return defs


def load_all(gl_xml, glx_xml, egl_xml):
    cmds = parse_commands(gl_xml, 'gl') + parse_commands(glx_xml, 'glx') + parse_commands(egl_xml, 'egl')
    seen = set()
    uniq = []
    for c in cmds:
        if c.name in seen:
            continue
        seen.add(c.name)
        uniq.append(c)
    uniq.sort(key=lambda c: c.name)
    return uniq
