// The PNG writer's code (stb_image_write), which the desktop links from Debian's libstb: the
// browser edition compiles it here from the same header.
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
