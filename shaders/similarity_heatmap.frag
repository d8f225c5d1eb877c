// similarity_heatmap.frag - PE(p) . PE(q) over positions x positions, one value per pixel.
// The dot product of two sinusoidal encodings depends only on the offset:
// PE(p) . PE(q) = f(|p - q|) = sum_i cos(w_i * (p - q)). The CPU computes f(0 .. L-1) once, in
// double (O(L * d), see dot_product_by_offset_range), divided by its maximum d/2, and uploads
// it as a texture; each pixel only looks its offset up. So L = 65 536 costs 65 536 floats, not
// 4e9 dot products, and the picture costs the same at every L.
#version 330 core

uniform sampler2D u_offsets; // R32F, 1024 texels wide: f(k) / (d/2) at (k % 1024, k / 1024)
uniform int u_max_len;
uniform vec2 u_size;      // target size in pixels
uniform vec2 u_columns;   // the visible window in positions: q left to right
uniform vec2 u_rows;      // p bottom to top
// The render command's integer mapping, when u_grid.x > 0: (W, H, L, L); pixel column x shows
// q = floor(x*L/W) and pixel row y, counted from the top, p = floor(y*L/H).
uniform ivec4 u_grid;
uniform int u_grey;       // 1: grey level (s + 1) / 2; 0: the diverging map
uniform vec3 u_negative;  // colour at -1
uniform vec3 u_middle;    // colour at 0
uniform vec3 u_positive;  // colour at +1
uniform vec2 u_value_range; // the values the map's ends stand for: (-1, 1), or fitted to the table

out vec4 colour;

void main() {
    int x = int(gl_FragCoord.x);
    int y = int(gl_FragCoord.y); // from the bottom
    int q;
    int p;
    if (u_grid.x > 0) {
        q = x * u_grid.z / u_grid.x;
        p = (u_grid.y - 1 - y) * u_grid.w / u_grid.y;
    } else {
        float fq = u_columns.x + (float(x) + 0.5) * (u_columns.y - u_columns.x) / u_size.x;
        float fp = u_rows.x + (float(y) + 0.5) * (u_rows.y - u_rows.x) / u_size.y;
        if (fq < 0.0 || fp < 0.0 || fq >= float(u_max_len) || fp >= float(u_max_len)) {
            colour = vec4(0.0); // outside the matrix: transparent
            return;
        }
        q = int(floor(fq));
        p = int(floor(fp));
    }
    int k = abs(p - q);
    float v = texelFetch(u_offsets, ivec2(k % 1024, k / 1024), 0).r;
    // Onto -1 ... 1; the fixed range (-1, 1) keeps v exactly (the render command's grey levels
    // are checked to the unit).
    float s = v;
    if (u_value_range != vec2(-1.0, 1.0))
        s = clamp(2.0 * (v - u_value_range.x) / (u_value_range.y - u_value_range.x) - 1.0, -1.0, 1.0);
    if (u_grey == 1) {
        colour = vec4(vec3((s + 1.0) * 0.5), 1.0);
    } else {
        vec3 c = s < 0.0 ? mix(u_middle, u_negative, -s) : mix(u_middle, u_positive, s);
        colour = vec4(c, 1.0);
    }
}
