// The room: a 1024×768 projector at text ×2, and a 1920×1080 screen at ×1, in every theme.
//  - Step fit: every step of every shipped lesson, shown as slides, shows each widget it
//    highlights whole (at least 98% of its rectangle inside the window, above the lesson bar),
//    and the lesson bar takes at most a fifth of the height.
//  - Presented panels: each design-card panel presented alone at 1024×768 ×2 keeps its defining
//    element and its result in view, the same way.
// The expected widget lists are what a room needs of each panel (the picture, the element
// that is the widget, the result), not from the panels' code.
#include "headless_fixture.h"
#include "io/lesson.h"
#include "shell/keyboard_help.h"
#include "shell/lesson_player.h"
#include "shell/step_fit.h"
#include "test_paths.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>

using namespace pelab;
namespace fs = std::filesystem;

namespace {

struct Room {
    const char* name;
    float width, height, text_scale;
};
constexpr Room kProjector{"1024x768 text x2", 1024, 768, 2.0f};
constexpr Room kRooms[] = {kProjector, {"1920x1080 text x1", 1920, 1080, 1.0f}};

/// How much of a highlighted widget must be in view: all of it, or this many text lines of it
/// (a table's header and first three rows) and this many text heights of its width (a plot's
/// frame, without its axis labels: two plots side by side on a 1024-pixel screen at ×2 keep
/// about 10 each).
constexpr float kShownLines = 4.0f;
constexpr float kShownEms = 9.0f;

class RoomTest : public HeadlessApp {
protected:
    void Enter(const Room& room, ThemeId theme) {
        ImGui::GetIO().DisplaySize = ImVec2(room.width, room.height);
        app.view.font_scale = room.text_scale;
        app.view.theme = theme;
        BuildFonts(fonts, kBaseFontPixels * room.text_scale);
        app.recorder.enabled = true;
    }
    // A few frames with a long time step: the step's glide lands, ImGui settles the windows'
    // sizes and scrollbars; the last frame records the rectangles afresh.
    void Settle() {
        ImGui::GetIO().DeltaTime = 0.1f;
        for (int frame = 0; frame < 6; ++frame) {
            app.recorder.rects.clear();
            app.recorder.layout.clear();
            Frame();
            if (HasFatalFailure()) return;
        }
        ImGui::GetIO().DeltaTime = 1.0f / 60.0f;
    }

    // "" when the widget is in view as the room needs it, else what is wrong.
    std::string InView(const std::string& name, float bottom) {
        const auto placed = app.recorder.layout.find(name);
        const auto shown = app.recorder.rects.find(name);
        if (placed == app.recorder.layout.end()) return name + " is not drawn";
        if (shown == app.recorder.rects.end()) return name + " is drawn but scrolled out of view";
        const WidgetRect& whole = placed->second.item;
        const WidgetRect& seen = shown->second;
        const ImVec2 display = ImGui::GetIO().DisplaySize;
        std::ostringstream out;
        if (seen.x0 < -0.5f || seen.y0 < -0.5f || seen.x1 > display.x + 0.5f ||
            seen.y1 > display.y + 0.5f)
            out << name << " reaches outside the window; ";
        if (seen.y1 > bottom + 0.5f)
            out << name << " runs under the lesson bar (ends at y " << seen.y1 << ", bar at "
                << bottom << "); ";
        const float line = ImGui::GetTextLineHeightWithSpacing();
        const float need_height = std::min(whole.y1 - whole.y0, kShownLines * line);
        const float need_width = std::min(whole.x1 - whole.x0, kShownEms * ImGui::GetFontSize());
        if (seen.y1 - seen.y0 + 1.0f < need_height)
            out << name << " shows " << seen.y1 - seen.y0 << " px of its height, needs "
                << need_height << "; ";
        if (seen.x1 - seen.x0 + 1.0f < need_width)
            out << name << " shows " << seen.x1 - seen.x0 << " px of its width, needs "
                << need_width << "; ";
        return out.str();
    }
};

std::vector<fs::path> ShippedLessons() {
    std::vector<fs::path> files;
    for (const auto& entry :
         fs::directory_iterator(fs::path(pelab_test::SourceDir()) / "assets/lessons"))
        if (entry.path().extension() == ".json") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

} // namespace

TEST_F(RoomTest, EveryLessonStepShowsWhatItHighlights) {
    const std::vector<fs::path> files = ShippedLessons();
    ASSERT_GE(files.size(), 3u);
    int checked = 0;
    for (const fs::path& file : files) {
        Lesson lesson;
        ASSERT_EQ(LoadLesson(file.string(), app.scene, app.panels, &lesson), "") << file;
        if (!lesson.needs_model.empty()) OpenLessonFixture(lesson.needs_model);
        // Themes change colours, not the layout: one theme here, the others in screenshots.
        for (const SlideRoom& room : {kProjectorRoom, kLaptopRoom}) {
            StartLesson(app, lesson);
            ASSERT_TRUE(app.Slides());
            for (int k = 0; k < app.lesson.StepCount(); ++k) {
                const std::string where =
                    file.filename().string() + " step " + std::to_string(k + 1) + " (\"" +
                    lesson.steps[k].caption.substr(0, 40) + "…\") at " + room.name;
                const StepFit fit = MeasureStepFit(app, k, room);
                EXPECT_EQ(StepFitProblem(fit), "") << where << " (drawn at " << fit.scale << ")";
                // Measured independently of StepFitProblem: each highlight's whole rectangle.
                for (const HighlightFit& highlight : fit.highlights) {
                    EXPECT_TRUE(highlight.drawn) << where << ": " << highlight.name;
                    EXPECT_GE(highlight.visible, 0.98f) << where << ": " << highlight.name;
                    ++checked;
                }
                const float bar = room.height - fit.bar_top;
                EXPECT_LE(bar, room.height * 0.2f) << where;
                EXPECT_GE(fit.caption_scale, kMinCaptionScale) << where;
                EXPECT_LE(fit.caption_lines, kCaptionLines)
                    << where << ": the caption needs more than " << kCaptionLines << " lines at "
                    << kMinCaptionScale << " of the text size";
            }
        }
    }
    EXPECT_GE(checked, 80);
}

// Presented alone on the projector, each panel keeps its picture, its defining element and its
// result in view; other controls may scroll.
TEST_F(RoomTest, PresentedPanelsKeepTheirDefiningElementInView) {
    const std::vector<std::pair<std::string, std::vector<std::string>>> defining = {
        {"compare", {"compare.offset_plot", "compare.table", "compare.similarity"}},
        {"order",
         {"order.pe_enabled", "order.verdict", "order.scores_a", "order.scores_b",
          "order.weights_a", "order.weights_b"}},
        {"waves", {"waves.wave_plot", "waves.spectrum", "waves.base"}},
        {"clocks", {"clocks.grid", "clocks.shift_k"}},
        {"calculator", {"calculator.table"}},
    };
    for (const ThemeId theme : kThemes) {
        for (const auto& [panel, names] : defining) {
            Enter(kProjector, theme);
            app.view.presented_panel = panel;
            Settle();
            if (HasFatalFailure()) return;
            for (const std::string& name : names)
                if (const std::string problem = InView(name, kProjector.height); !problem.empty())
                    ADD_FAILURE() << panel << " presented at " << kProjector.name << ", theme "
                                  << GetTheme(theme).name << ": " << problem;
            // One scrollbar at a time: where the grid or the table scrolls, the window around
            // it does not.
            if (panel == "clocks" || panel == "compare" || panel == "calculator") {
                const ImGuiWindow* window = WindowOf(panel);
                ASSERT_NE(window, nullptr);
                EXPECT_LT(window->ScrollMax.y, 1.0f)
                    << panel << " scrolls around its own scrolling "
                    << (panel == "clocks" ? "grid" : "table");
            }
        }
    }
}

// The first run's Start map on the projector has no menus: a line in a corner says Esc brings
// them, until Esc has been used; it is not part of any panel's layout.
TEST_F(RoomTest, APanelWithoutMenusSaysHowToReachThem) {
    Enter(kProjector, ThemeId::Dark);
    app.view.presented_panel = "start";
    Settle();
    ASSERT_TRUE(app.recorder.rects.count("hint.menus")) << "no hint without the menus";
    const WidgetRect hint = app.recorder.rects["hint.menus"];
    EXPECT_LE(hint.x1, kProjector.width);
    EXPECT_LE(hint.y1, kProjector.height);
    Press(keys::kEscape);
    Settle();
    EXPECT_EQ(app.view.presented_panel, "");
    EXPECT_FALSE(app.recorder.rects.count("hint.menus")) << "the menus are back";
    app.view.presented_panel = "start";
    Settle();
    EXPECT_FALSE(app.recorder.rects.count("hint.menus")) << "said once";
    // A large screen keeps its menus: no hint there.
    app.menus_hint_done = false;
    Enter({"1920x1080 text x1", 1920, 1080, 1.0f}, ThemeId::Dark);
    Settle();
    EXPECT_FALSE(app.recorder.rects.count("hint.menus"));
}

// The hint must not stay over the panel (it covered the end of the Train verdict for good): it
// stays kMenusHintSeconds, fades over the next second, and is gone, mouse moved or not.
TEST_F(RoomTest, TheMenusHintFadesAfterAFewSeconds) {
    Enter(kProjector, ThemeId::Dark);
    app.view.presented_panel = "train";
    Settle();
    ASSERT_TRUE(app.recorder.rects.count("hint.menus"));
    ASSERT_GE(app.menus_hint_shown_at, 0);
    EXPECT_TRUE(app.MenusHintAnimating()) << "the frames keep coming while it fades";
    const auto run_until = [&](double age) {
        ImGui::GetIO().DeltaTime = 0.05f;
        while (ImGui::GetTime() - app.menus_hint_shown_at < age) {
            app.recorder.rects.clear();
            Frame();
            if (HasFatalFailure()) return;
        }
    };
    run_until(kMenusHintSeconds - 0.5);
    EXPECT_TRUE(app.recorder.rects.count("hint.menus")) << "still there before it fades";
    run_until(kMenusHintSeconds + 0.5);
    EXPECT_TRUE(app.recorder.rects.count("hint.menus")) << "half faded";
    run_until(kMenusHintSeconds + kMenusHintFadeSeconds + 0.1);
    app.recorder.rects.clear();
    Frame();
    EXPECT_FALSE(app.recorder.rects.count("hint.menus")) << "gone after the fade";
    EXPECT_TRUE(app.menus_hint_done);
    EXPECT_FALSE(app.MenusHintAnimating()) << "and the frames may rest";
    EXPECT_EQ(app.view.presented_panel, "train") << "the panel stays presented";
}

// No scrollbar inside a scrolling region: a panel's window, its control strip, its body and its
// own grids or tables each scroll alone, side by side. Checked for every panel (and every tab of
// the alternatives) presented in both rooms, and with the panels tiled.
TEST_F(RoomTest, NoScrollbarScrollsInsideAnother) {
    std::vector<std::pair<std::string, std::string>> shown; // panel, alternatives tab
    for (const PanelEntry& entry : app.panels.Entries())
        shown.emplace_back(entry.id, "");
    for (const char* tab : {"learned", "rope", "alibi", "t5", "scaling", "table"})
        shown.emplace_back("alternatives", tab);
    int scrolling = 0; // windows seen scrolling: the check is not vacuous
    const auto check = [&](const std::string& where) {
        for (ImGuiWindow* window : ImGui::GetCurrentContext()->Windows) {
            if (!window->Active || !window->ScrollbarY) continue;
            ++scrolling;
            for (const ImGuiWindow* outer = window->ParentWindow; outer != nullptr;
                 outer = outer->ParentWindow)
                if (outer->ScrollbarY)
                    ADD_FAILURE() << where << ": " << window->Name << " scrolls inside "
                                  << outer->Name;
        }
    };
    for (const Room& room : kRooms) {
        for (const auto& [panel, tab] : shown) {
            Enter(room, ThemeId::Dark);
            app.view.presented_panel = panel;
            if (!tab.empty()) {
                ASSERT_EQ(app.scene.ApplyDocument(nlohmann::json{{"alternatives_tab", tab}}), "");
            }
            Settle();
            if (HasFatalFailure()) return;
            check(panel + (tab.empty() ? "" : " (" + tab + ")") + " presented at " + room.name);
        }
        Enter(room, ThemeId::Dark);
        app.view.presented_panel.clear();
        Settle();
        check(std::string("the tiled panels at ") + room.name);
    }
    EXPECT_GT(scrolling, 20);
}

// The home view on the projector: four tiles at text ×2 are about 15 × 10 text heights, and
// two are 15 × 19, both too small for any picture beside the controls; the first frame keeps
// the panels whose tiles are at least 20 text heights wide and 14 tall (one there), says so on
// the status bar, and larger screens keep all four.
TEST_F(RoomTest, TheHomeViewOpensOnlyThePanelsThatFit) {
    const Room rooms[] = {
        kProjector, {"1920x1080 text x1", 1920, 1080, 1.0f}, {"1024x768 text x1", 1024, 768, 1.0f}};
    for (const Room& room : rooms) {
        SCOPED_TRACE(room.name);
        app.home_fit.done = false;
        for (PanelEntry& entry : app.panels.Entries())
            entry.open = entry.id == "waves" || entry.id == "compare" || entry.id == "heatmap" ||
                         entry.id == "order";
        Enter(room, ThemeId::Dark);
        Settle();
        int open = 0;
        for (const PanelEntry& entry : app.panels.Entries()) {
            if (!entry.open) continue;
            ++open;
            const ImGuiWindow* window = ImGui::FindWindowByName(entry.window_name.c_str());
            ASSERT_NE(window, nullptr) << entry.id;
            EXPECT_GE(window->Size.x, 19 * ImGui::GetFontSize()) << entry.id;
            EXPECT_GE(window->Size.y, 13 * ImGui::GetFontSize()) << entry.id;
        }
        if (room.text_scale == 2.0f) {
            // 1024 px at 34 px a text height is 30 across: no two tiles of 20 side by side.
            EXPECT_EQ(open, 1);
            EXPECT_TRUE(app.panels.Find("waves")->open) << "the first panel is kept";
            EXPECT_NE(app.status_note.find("1 of 4 panels"), std::string::npos) << app.status_note;
            // Another panel opened: the note no longer counts what is on screen.
            app.panels.Find("compare")->open = true;
            Settle();
            EXPECT_EQ(app.status_note, "");
            EXPECT_TRUE(app.panels.Find("compare")->open) << "a panel the user opens stays";
            // Reset all brings the default panels back, fitted again.
            ResetAll(app);
            Settle();
            int after_reset = 0;
            for (const PanelEntry& entry : app.panels.Entries())
                after_reset += entry.open ? 1 : 0;
            EXPECT_EQ(after_reset, 1);
        } else {
            // Four tiles at ×1: 1920×1080 makes them 56 × 30 text heights, 1024×768 30 × 20.
            EXPECT_EQ(open, 4);
            EXPECT_EQ(app.status_note, "");
        }
        app.status_note.clear();
    }
}
