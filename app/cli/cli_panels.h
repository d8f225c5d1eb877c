// cli_panels.h — `pelab panels [--json]`: the registered panels, read from PanelInfos() (no
// panel is built), for people at a terminal and for scripts (scripts/readme_screenshots.sh).
#pragma once

namespace pelab {

/// Prints every panel: its id, title and one-line summary; with json, one JSON array with each
/// panel's id, title, summary, whether it opens by default, its widget names, the scene fields
/// it reads, its own keys, its main picture and the scene of its README picture.
int RunPanels(bool json);

} // namespace pelab
