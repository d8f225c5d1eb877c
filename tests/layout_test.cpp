// Layout: every registered panel, presented alone, at window sizes from an old projector to 4K
// and at text scales 1, 1.5 and 2, lays out its content within its window: nothing extends past
// the right edge of the content region of the window (or child window) that holds it. Vertical
// overflow is allowed only where the window scrolls. The check is geometric (ImGui's own record
// of how far each window's content reached), so it sees every widget and every line of text,
// named or not; the named widgets the recorder saw are checked against the same edge and
// listed when one is out.
#include "headless_fixture.h"
#include "panels/start/panel_start.h"
#include "panels/waves/panel_waves.h"
#include "shell/glossary.h"
#include "shell/main_menu.h"
#include "widgets/layout.h"
#include "widgets/widgets.h"

#include <gtest/gtest.h>

#include <cmath>
#include <imgui.h>
#include <imgui_internal.h>

#include <sstream>

using namespace pelab;

namespace {

struct Size {
    float width, height;
};
constexpr Size kSizes[] = {{1024, 768}, {1280, 720}, {1920, 1080}, {3840, 2160}};
constexpr float kScales[] = {1.0f, 1.5f, 2.0f};

class Layout : public HeadlessApp {
protected:
    // Renders the panel presented at this size and text scale for a few frames (ImGui settles
    // window sizes and scrollbars over two frames).
    void Present(const std::string& id, Size size, float scale) {
        ImGui::GetIO().DisplaySize = ImVec2(size.width, size.height);
        app.view.font_scale = scale;
        app.view.presented_panel = id;
        BuildFonts(fonts, kBaseFontPixels * scale);
        app.recorder.enabled = true;
        for (int frame = 0; frame < 4; ++frame) {
            app.recorder.rects.clear();
            Frame();
        }
    }

    // Every window belonging to the panel (the panel and its child windows) whose content
    // reaches past its right edge, with how far.
    std::string Overflows(const std::string& id) {
        ImGuiWindow* panel = WindowOf(id);
        if (panel == nullptr) return "panel window missing";
        std::ostringstream out;
        for (ImGuiWindow* window : GImGui->Windows) {
            if (window->RootWindow != panel || !window->WasActive || window->Hidden) continue;
            const bool scrolls_x = (window->Flags & ImGuiWindowFlags_HorizontalScrollbar) != 0;
            const float past = window->DC.CursorMaxPos.x - window->WorkRect.Max.x;
            if (!scrolls_x && past > 1.0f)
                out << "  " << window->Name << ": content reaches " << past
                    << " px past the right edge\n";
        }
        for (const auto& [name, rect] : app.recorder.layout) {
            if (rect.item.x1 > rect.right_edge + 1.0f)
                out << "  widget " << name << " ends " << rect.item.x1 - rect.right_edge
                    << " px past the right edge\n";
        }
        return out.str();
    }
};

} // namespace

TEST_F(Layout, EveryPanelFitsItsWindowAtEverySizeAndTextScale) {
    int checked = 0;
    for (const PanelEntry& entry : app.panels.Entries()) {
        for (const Size size : kSizes) {
            for (const float scale : kScales) {
                Present(entry.id, size, scale);
                if (HasFatalFailure()) return;
                const std::string overflows = Overflows(entry.id);
                EXPECT_TRUE(overflows.empty()) << entry.id << " at " << size.width << "x"
                                               << size.height << ", text scale " << scale << ":\n"
                                               << overflows;
                ++checked;
            }
        }
    }
    EXPECT_EQ(checked, static_cast<int>(app.panels.Entries().size()) * 12);
}

// All four panels tiled (2 × 2), at every size and text scale where a tile is at least 20 text
// heights wide (1024×768 and 1280×720 at text scale 2 leave 15–19: one panel at a time is the
// way to read those, and the presented case above covers it), and with the controls that only
// some settings show (many waves, a range of dimensions, random words) switched on.
TEST_F(Layout, TiledPanelsAndOptionalControlsFit) {
    for (const bool optional : {false, true}) {
        app.scene.Apply(optional ? R"({"many_waves": true, "compare_dims": "range",
                                       "random_embeddings": true})"
                                 : R"({"many_waves": false, "compare_dims": "all",
                                       "random_embeddings": false})");
        for (const Size size : kSizes) {
            for (const float scale : kScales) {
                if (size.width / 2 / (kBaseFontPixels * scale) < 20.0f) continue;
                Present("", size, scale);
                if (HasFatalFailure()) return;
                for (const PanelEntry& entry : app.panels.Entries()) {
                    if (!entry.open) continue; // the tiles are the panels open by default
                    const std::string overflows = Overflows(entry.id);
                    EXPECT_TRUE(overflows.empty())
                        << entry.id << " tiled at " << size.width << "x" << size.height
                        << ", text scale " << scale << (optional ? ", optional controls" : "")
                        << ":\n"
                        << overflows;
                }
            }
        }
    }
}

// A presented panel uses the screen: at 1920×1080 its named widgets (plots, heatmaps, the clock
// grid, the table) span at least 80% of the window's content area (their bounding box, clipped
// to the window).
TEST_F(Layout, PresentedPanelsFillTheWindow) {
    for (const PanelEntry& entry : app.panels.Entries()) {
        Present(entry.id, {1920, 1080}, 1.0f);
        const ImGuiWindow* window = WindowOf(entry.id);
        ASSERT_NE(window, nullptr);
        const ImRect inner = window->InnerRect;
        ImRect used(FLT_MAX, FLT_MAX, -FLT_MAX, -FLT_MAX);
        for (const auto& [name, placement] : app.recorder.layout) {
            if (name.rfind(entry.id + ".", 0) != 0) continue;
            used.Add(ImVec2(std::max(placement.item.x0, inner.Min.x),
                            std::max(placement.item.y0, inner.Min.y)));
            used.Add(ImVec2(std::min(placement.item.x1, inner.Max.x),
                            std::min(placement.item.y1, inner.Max.y)));
        }
        const float fraction = used.GetArea() / inner.GetArea();
        EXPECT_GE(fraction, 0.8f) << entry.id << " uses " << fraction * 100 << "% of the window";
    }
}

// The recorder sees the panels' controls: a layout failure names the widget, and the e2e tests
// can click any of them.
TEST_F(Layout, EveryPanelNamesItsControls) {
    for (const PanelEntry& entry : app.panels.Entries()) {
        Present(entry.id, {1920, 1080}, 1.0f);
        int named = 0;
        for (const auto& [name, rect] : app.recorder.layout)
            if (name.rfind(entry.id + ".", 0) == 0) ++named;
        EXPECT_GE(named, 6) << entry.id;
    }
}

// SameLineIfFits keeps an item on the row while it fits and starts a new row when not.
TEST_F(Layout, SameLineIfFitsWrapsOnlyWhatDoesNotFit) {
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(300, 200));
    ImGui::Begin("row", nullptr, ImGuiWindowFlags_NoScrollbar);
    ImGui::Button("first", ImVec2(100, 0));
    const float row_y = ImGui::GetItemRectMin().y;
    SameLineIfFits(100);
    ImGui::Button("second", ImVec2(100, 0));
    EXPECT_EQ(ImGui::GetItemRectMin().y, row_y); // 100 + spacing + 100 fits in ~284
    SameLineIfFits(100);
    ImGui::Button("third", ImVec2(100, 0));
    EXPECT_GT(ImGui::GetItemRectMin().y, row_y); // a third would pass the edge: new row
    EXPECT_LE(ImGui::GetItemRectMax().x, ContentRight());
    ImGui::End();
    ImGui::Render();
}

// View → Hide controls (H, and the scene field): the pictures and key numbers stay, the
// control rows go; H again brings them back.
TEST_F(Layout, HideControlsLeavesThePicturesAndComesBack) {
    ASSERT_EQ(app.scene.Apply(R"({"hide_controls": true})"), "");
    Present("", {1920, 1080}, 1.0f);
    for (const char* control : {"waves.pair_slider", "waves.reset_view", "waves.fit",
                                "waves.pin_view", "compare.pos_a_input", "compare.filter",
                                "clocks.play", "order.sentence_a", "compare.shift_k"})
        EXPECT_EQ(app.recorder.layout.count(control), 0u) << control;
    for (const char* picture :
         {"waves.wave_plot", "waves.spectrum", "compare.offset_plot", "compare.dot_product",
          "clocks.grid", "order.scores_a", "order.difference"})
        EXPECT_EQ(app.recorder.layout.count(picture), 1u) << picture;
    EXPECT_TRUE(app.Document(false)["hide_controls"].get<bool>());
    app.recorder.layout.clear();
    Frame({}, {KeyPress{keys::kH}});
    Frame();
    EXPECT_FALSE(app.view.hide_controls);
    EXPECT_EQ(app.recorder.layout.count("waves.pair_slider"), 1u);
}

// Help → Glossary lists every symbol the panels show without explaining it on the spot.
TEST_F(Layout, GlossaryExplainsTheSymbols) {
    int count = 0;
    const GlossaryEntry* entries = GlossaryEntries(&count);
    for (const char* symbol : {"ω_i", "λ", "QKᵀ", "√d", "softmax", "one-hot", "base", "pair i"}) {
        bool found = false;
        for (int k = 0; k < count; ++k)
            found = found || std::string(entries[k].term).find(symbol) != std::string::npos;
        EXPECT_TRUE(found) << symbol;
    }
    app.view.show_glossary = true;
    Present("", {1280, 720}, 1.0f);
    const ImGuiWindow* glossary = ImGui::FindWindowByName("Glossary");
    ASSERT_NE(glossary, nullptr);
    EXPECT_TRUE(glossary->WasActive);
}

// The status bar names the order demo's own width while that panel is presented.
TEST_F(Layout, StatusBarShowsTheOrderDemosOwnWidth) {
    EXPECT_EQ(app.panels.Find("order")->panel->StatusNote(app.state),
              "order demo: its own d_model 16");
    EXPECT_EQ(app.panels.Find("waves")->panel->StatusNote(app.state), "");
}

// With one panel open, View → Arrange (and Esc) gives it the whole window, not a quarter.
TEST_F(Layout, ArrangeGivesASingleOpenPanelTheWholeWindow) {
    for (PanelEntry& entry : app.panels.Entries())
        entry.open = entry.id == "clocks";
    ImGui::GetIO().DisplaySize = ImVec2(1600, 1000);
    app.pending.arrange = true;
    Frame();
    Frame();
    const ImGuiWindow* window = WindowOf("clocks");
    ASSERT_NE(window, nullptr);
    EXPECT_GT(window->Size.x, 1600 * 0.95f);
    EXPECT_GT(window->Size.y, 1000 * 0.85f);
}

// A larger text size makes the menu bar taller: the tiles are laid out again, so no panel's
// title bar is left under the menu bar (Ctrl+= once left them there until View → Arrange).
TEST_F(Layout, LargerTextTilesThePanelsAgainBelowTheMenuBar) {
    for (PanelEntry& entry : app.panels.Entries())
        entry.open = entry.id == "clocks" || entry.id == "waves";
    ImGui::GetIO().DisplaySize = ImVec2(1280, 800);
    app.pending.arrange = true;
    Frame();
    Frame();
    BuildFonts(fonts, kBaseFontPixels * 2.0f);
    for (int frame = 0; frame < 3; ++frame)
        Frame();
    const float menu_bar = ImGui::GetFrameHeight();
    for (const char* id : {"clocks", "waves"}) {
        const ImGuiWindow* window = WindowOf(id);
        ASSERT_NE(window, nullptr);
        EXPECT_GE(window->Pos.y, menu_bar - 0.5f) << id << " starts under the menu bar";
    }
}

// A theme, text size, mode or recent file changed is written within ImGui's saving interval,
// not only when the window closes (a crash or a discarded browser tab never closes it).
TEST_F(Layout, AChangedViewSettingIsSavedSoon) {
    Frame();
    Frame();
    ImGuiContext& context = *GImGui;
    context.SettingsDirtyTimer = 0.0f;
    app.view.theme = ThemeId::Light;
    Frame();
    EXPECT_GT(context.SettingsDirtyTimer, 0.0f) << "a theme change did not mark the settings";
    context.SettingsDirtyTimer = 0.0f;
    Frame();
    EXPECT_EQ(context.SettingsDirtyTimer, 0.0f) << "nothing changed, yet the settings are marked";
    app.view.recent_files.insert(app.view.recent_files.begin(), "/tmp/a.json");
    Frame();
    EXPECT_GT(context.SettingsDirtyTimer, 0.0f) << "a new recent file did not mark the settings";
}

// Typed or played out of the view, pos A pulls the wave plot along (unless pinned); a view
// panned away from a pos A that stays put is left alone.
TEST_F(Layout, WavePlotFollowsPosAUnlessPinned) {
    WavesPanel& waves = Get<WavesPanel>("waves");
    Present("waves", {1280, 720}, 1.0f);
    ASSERT_LT(waves.wave_view.x.max, 100.0);
    state.pos_a = 100;
    Frame();
    EXPECT_LE(waves.wave_view.x.min, 100.0);
    EXPECT_GE(waves.wave_view.x.max, 100.0);
    waves.wave_view.x = plot::Range{500, 564}; // the user pans away; pos A stays at 100
    Frame();
    EXPECT_EQ(waves.wave_view.x.min, 500);
    waves.pin_view = true;
    state.pos_a = 2000;
    Frame();
    EXPECT_EQ(waves.wave_view.x.min, 500);
}

// waves_fit: the wave plot spans two wavelengths of the selected pair and follows the pair, the
// base and d_model; turned off, the view is back at positions 0 to 64. The spans are computed
// here from the paper's formula, λ_i = 2π·base^(2i/d).
TEST_F(Layout, WavePlotFitsTwoWavelengthsOfThePair) {
    WavesPanel& waves = Get<WavesPanel>("waves");
    Present("waves", {1280, 720}, 1.0f);
    ASSERT_EQ(app.scene.ApplyDocument(nlohmann::json{{"pair", 100}, {"waves_fit", true}}), "");
    Frame();
    const double two_pi = 6.283185307179586;
    EXPECT_EQ(waves.wave_view.x.min, 0.0);
    EXPECT_NEAR(waves.wave_view.x.max, 2 * two_pi * std::pow(10000.0, 200.0 / 512), 1e-6);
    ASSERT_EQ(app.scene.ApplyDocument(nlohmann::json{{"pair", 255}, {"base", 100}}), "");
    Frame();
    EXPECT_NEAR(waves.wave_view.x.max, 2 * two_pi * std::pow(100.0, 510.0 / 512), 1e-6);
    ASSERT_EQ(app.scene.ApplyDocument(nlohmann::json{{"waves_fit", false}}), "");
    Frame();
    EXPECT_EQ(waves.wave_view.x.min, 0.0);
    EXPECT_EQ(waves.wave_view.x.max, 64.0);
}

// The clocks' summary shows each pair once (d_model 4 has two pairs: no "middle" that is also
// the slowest; d_model 2 has one), and its faces grow with the text: at text scale 2 a face is
// at least 2.2 text heights across its radius, even in a 1024×768 window.
TEST_F(Layout, ClockSummaryShowsDistinctPairsAndGrowsWithText) {
    const auto summary_faces = [&] {
        std::vector<std::pair<std::string, WidgetRect>> faces;
        for (const auto& [name, placement] : app.recorder.layout)
            if (name.rfind("clocks.summary_pair_", 0) == 0)
                faces.emplace_back(name, placement.item);
        return faces;
    };
    state.d_model = 4;
    Present("clocks", {1280, 720}, 1.0f);
    auto faces = summary_faces();
    ASSERT_EQ(faces.size(), 2u);
    EXPECT_EQ(faces[0].first, "clocks.summary_pair_0");
    EXPECT_EQ(faces[1].first, "clocks.summary_pair_1");
    app.recorder.layout.clear();
    state.d_model = 2;
    Present("clocks", {1280, 720}, 1.0f);
    EXPECT_EQ(summary_faces().size(), 1u);
    app.recorder.layout.clear();
    state.d_model = 512;
    Present("clocks", {1024, 768}, 1.0f);
    faces = summary_faces();
    ASSERT_EQ(faces.size(), 3u);
    // The face's height: the group less its two caption lines (name, wavelength).
    float font = ImGui::GetFontSize(), captions = 2 * ImGui::GetTextLineHeightWithSpacing();
    for (const auto& [name, rect] : faces)
        EXPECT_GE(rect.y1 - rect.y0 - captions, 2 * 2.2f * font - 1) << name;
    // A projector at text scale 2: the summary's three faces, small, on one row (the slow hand
    // is there too), and the grid below keeps its height; the legend stays.
    app.recorder.layout.clear();
    Present("clocks", {1024, 768}, 2.0f);
    EXPECT_EQ(summary_faces().size(), 3u);
    EXPECT_EQ(app.recorder.layout.count("clocks.legend"), 1u);
    ASSERT_EQ(app.recorder.layout.count("clocks.grid"), 1u);
    font = ImGui::GetFontSize();
    const WidgetRect grid = app.recorder.layout["clocks.grid"].item;
    EXPECT_GE(grid.y1 - grid.y0, 2 * 2.2f * font) << "the grid's faces grow with the text";
}

// An old projector at text scale 2 (1024×768): a presented panel's main picture is wholly in
// view without scrolling, however many controls and sentences the panel has (the controls
// scroll in a strip, the prose follows the pictures), and the controls are still there.
TEST_F(Layout, ShortPresentedWindowShowsThePictureWhole) {
    for (const PanelInfo& c : PanelInfos()) {
        SCOPED_TRACE(c.id);
        app.recorder.layout.clear();
        Present(c.id, {1024, 768}, 2.0f);
        const float font = ImGui::GetFontSize();
        ASSERT_EQ(app.recorder.layout.count(c.picture), 1u) << c.picture;
        const WidgetRect whole = app.recorder.layout[c.picture].item;
        const ImRect inner = WindowOf(c.id)->InnerRect;
        EXPECT_GE(whole.y0, inner.Min.y - 1) << c.picture << " starts above the window";
        EXPECT_LE(whole.y1, inner.Max.y + 1)
            << c.picture << " is cut: it ends at " << whole.y1 << ", the window at " << inner.Max.y;
        EXPECT_GE(whole.y1 - whole.y0, c.picture_ems * font) << c.picture << " is squashed";
        EXPECT_EQ(app.recorder.layout.count(c.control), 1u) << c.control;
    }
}

// Compare presented on the projector with its controls hidden: the room the controls leave
// goes to the table too (it kept its three rows while the band above grew), and the offset
// plot keeps its 9 text heights.
TEST_F(Layout, CompareWithoutControlsShowsMoreRowsOfItsTable) {
    const auto rows_in_view = [&] {
        const WidgetRect table = app.recorder.rects.at("compare.table");
        return (table.y1 - table.y0) / ImGui::GetTextLineHeightWithSpacing();
    };
    Present("compare", {1024, 768}, 2.0f);
    const float with_controls = rows_in_view();
    ASSERT_EQ(app.scene.Apply(R"({"hide_controls": true})"), "");
    Present("compare", {1024, 768}, 2.0f);
    const float without_controls = rows_in_view();
    EXPECT_GE(without_controls, with_controls + 2.0f)
        << with_controls << " lines of table with the controls, " << without_controls << " without";
    const WidgetRect plot = app.recorder.layout.at("compare.offset_plot").item;
    EXPECT_GE(plot.y1 - plot.y0, 9.0f * ImGui::GetFontSize());
}

// Four tiles on a 1024×768 screen at text ×2.6 with the controls hidden: the waves panel is
// short and narrow, and its two half-width plots had no room at all (the tile was blank down
// to its readouts). Halves under 9 em now stack at full width: the wave plot is drawn.
TEST_F(Layout, NarrowShortWavesTileStillDrawsItsPlot) {
    app.view.hide_controls = true;
    Present("", {1024, 768}, 2.645f);
    app.pending.arrange = true;
    for (int frame = 0; frame < 3; ++frame)
        Frame();
    ASSERT_TRUE(app.panels.Find("waves")->open);
    ASSERT_EQ(app.recorder.layout.count("waves.wave_plot"), 1u);
    const WidgetRect plot = app.recorder.layout["waves.wave_plot"].item;
    const float font = ImGui::GetFontSize();
    EXPECT_GE(plot.x1 - plot.x0, 8 * font) << "a plot needs room beside its axis labels";
}

// The start map on the room's projector (1024×768, text ×2) is whole: all six boxes and their
// sentences in the window and nothing to scroll (its hint line was cut off: the map now
// shortens its arrows, and drops the hint if it must, until it fits). A tall window keeps both.
TEST_F(Layout, StartMapFitsTheProjectorWithoutScrolling) {
    Present("start", {1024, 768}, 2.0f);
    for (int frame = 0; frame < 3; ++frame)
        Frame();
    ImGuiWindow* window = WindowOf("start");
    EXPECT_EQ(window->ScrollMax.y, 0.0f) << "the map scrolls";
    for (const WidgetName& widget : FindPanelInfo("start")->widgets()) {
        const std::string& name = widget.name;
        ASSERT_EQ(app.recorder.layout.count(name), 1u) << name;
        EXPECT_LE(app.recorder.layout[name].item.y1, window->InnerRect.Max.y + 1) << name;
    }
    auto& start = Get<StartPanel>("start");
    EXPECT_GE(start.compact, 1);
    Present("start", {1920, 1080}, 1.0f);
    for (int frame = 0; frame < 3; ++frame)
        Frame();
    EXPECT_EQ(start.compact, 0) << "a tall window keeps the full arrows and the hint";
    EXPECT_EQ(WindowOf("start")->ScrollMax.y, 0.0f);
}

// The status bar: the note first when it and the numbers do not fit together, then whole fields
// only (the tiled view at 1024×768 ×2 ended in "d_r"), a note too long for the bar cut at a
// character with "…"; over every width from none to more than all of it, at ten pixels a
// character (code points, as "·" and "…" are one each).
TEST_F(Layout, TheStatusBarNeverCutsAFieldThrough) {
    const auto width_of = [](const std::string& text) {
        float count = 0;
        for (const char c : text)
            count += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
        return 10.0f * count;
    };
    const std::vector<std::string> fields = {"d_model 512", "base 10000", "pos A 3", "pos B 7",
                                             "pair 0"};
    const std::string note = "showing 1 of 4 panels · to fit";
    for (const std::string& shown_note : {std::string(), note}) {
        for (float width = 0; width <= 1200; width += 5) {
            const std::string text = pelab::StatusBarText(fields, shown_note, width, width_of);
            EXPECT_LE(width_of(text), std::max(width, width_of("…"))) << width;
            std::string rest = text;
            if (!shown_note.empty()) {
                if (rest.rfind(shown_note, 0) == 0) {
                    rest = rest.substr(shown_note.size());
                } else if (rest.size() >= 3 && rest.compare(rest.size() - 3, 3, "…") == 0) {
                    // The note cut: the words before "…" begin the note, and nothing follows.
                    EXPECT_EQ(shown_note.rfind(rest.substr(0, rest.size() - 3), 0), 0u) << width;
                    EXPECT_GT(width_of(shown_note), width);
                    continue;
                } else {
                    // Both whole, numbers first.
                    const std::size_t at = rest.find(shown_note);
                    ASSERT_NE(at, std::string::npos) << text;
                    EXPECT_EQ(at + shown_note.size(), rest.size()) << text;
                    rest = rest.substr(0, at);
                }
            }
            // What is left is whole fields, in order, each once, and every field that would
            // still fit is there.
            std::size_t shown = 0;
            for (const std::string& field : fields)
                if (rest.find(field) != std::string::npos) ++shown;
            std::string rebuilt;
            for (std::size_t k = 0; k < shown; ++k)
                rebuilt += (k ? "   " : "") + fields[k];
            EXPECT_NE(rest.find(rebuilt), std::string::npos) << "[" << text << "] " << width;
            std::string words = rest;
            for (const std::string& field : fields) {
                const std::size_t at = words.find(field);
                if (at != std::string::npos) words.erase(at, field.size());
            }
            for (const char c : words)
                EXPECT_TRUE(c == ' ' || (c & 0x80)) << "[" << text << "]";
        }
    }
    EXPECT_EQ(pelab::StatusBarText(fields, "", 2000, width_of),
              "d_model 512   base 10000   pos A 3   pos B 7   pair 0");
}

// The tiled home view at 1024×768 ×2 with its "showing 1 of 4" note: the status bar's text fits
// its bar.
TEST_F(Layout, TheTiledStatusBarFitsTheProjector) {
    ImGui::GetIO().DisplaySize = ImVec2(1024, 768);
    pelab::BuildFonts(fonts, pelab::kBaseFontPixels * 2.0f);
    app.status_note = "showing 1 of 4 panels to fit the window (View → Panels opens more)";
    app.pending.arrange = true;
    for (int frame = 0; frame < 3; ++frame)
        Frame();
    const ImGuiWindow* bar = ImGui::FindWindowByName("##status");
    ASSERT_NE(bar, nullptr);
    ASSERT_TRUE(bar->WasActive);
    EXPECT_LE(bar->ContentSize.x, bar->InnerRect.GetWidth() - 2 * bar->WindowPadding.x + 0.5f);
    EXPECT_GT(bar->ContentSize.x, 0.5f * bar->InnerRect.GetWidth()) << "the note is shown";
}

// A long tooltip is wrapped to fit the window: at 1024×768 ×2 a line wider than the window
// hovered at the right edge stays inside the window.
TEST_F(Layout, ALongTooltipStaysInsideTheWindow) {
    ImGui::GetIO().DisplaySize = ImVec2(1024, 768);
    pelab::BuildFonts(fonts, pelab::kBaseFontPixels * 2.0f);
    const std::string words = "PE(A, 17) = sin(omega_8 * A) = sin(0.0215443469 * 3.000000) = "
                              "+0.06457434 and the same for B, with the difference printed too";
    for (int frame = 0; frame < 3; ++frame) {
        ImGui::GetIO().MousePos = ImVec2(1010, 380);
        ImGui::NewFrame();
        EXPECT_GT(ImGui::CalcTextSize(words.c_str()).x, 1024.0f);
        pelab::Tooltip("%s", words.c_str());
        ImGui::Render();
    }
    const ImGuiWindow* tooltip = ImGui::FindWindowByName("##Tooltip_00");
    ASSERT_NE(tooltip, nullptr);
    EXPECT_GT(tooltip->Size.y, 2.5f * ImGui::GetFontSize()) << "wrapped over lines";
    EXPECT_GE(tooltip->Pos.x, 0.0f);
    EXPECT_LE(tooltip->Pos.x + tooltip->Size.x, 1024.0f);
}
