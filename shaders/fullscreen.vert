// fullscreen.vert - one triangle that covers the whole target (no vertex buffer: the corners
// come from gl_VertexID), so that the fragment shader runs once per pixel of the target.
#version 330 core

void main() {
    vec2 corner = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
    gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
