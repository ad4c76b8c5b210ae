"""GL enum values for the Python tests, read from the Khronos registry (gl.xml) the build generates
registry/glr_gl_enums.h from, so no test writes an enum value by hand (issue 16 §3;
tests/unit/check_gl_literals.py checks). Usage: gl = gl_enums.load(path_to_gl_xml); gl['GL_RGBA']."""
import xml.etree.ElementTree as ET


def load(gl_xml):
    """{name: value} of every enum of gl.xml (the GL API's value where a name has several)."""
    values = {}
    for e in ET.parse(gl_xml).getroot().iter('enum'):
        name, value = e.get('name'), e.get('value')
        if name and value and e.get('api') in (None, 'gl') and name not in values:
            values[name] = int(value, 0)
    return values
