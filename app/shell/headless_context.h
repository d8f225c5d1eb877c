// headless_context.h — an ImGui context of PE Lab's own, without a window: for pictures made in
// software and for laying out a lesson's steps to measure them (`pelab lesson check`). The
// caller's context, if any, is current again when it goes away.
#pragma once

#include "widgets/fonts.h"

#include <imgui.h>

namespace pelab {

class HeadlessContext {
public:
    /// A display of width × height pixels with PE Lab's fonts at font_pixels.
    HeadlessContext(float width, float height, float font_pixels)
        : caller_(ImGui::GetCurrentContext()), context_(ImGui::CreateContext()) {
        ImGui::SetCurrentContext(context_);
        ImGuiIO& io = ImGui::GetIO();
        io.IniFilename = nullptr;
        io.DisplaySize = ImVec2(width, height);
        io.DeltaTime = 1.0f / 60.0f;
        // Draw lists past 65 536 vertices are split with VtxOffset, as the GL renderer does.
        io.BackendFlags |= ImGuiBackendFlags_RendererHasVtxOffset;
        BuildFonts(fonts_, font_pixels);
    }
    ~HeadlessContext() {
        ImGui::DestroyContext(context_);
        ImGui::SetCurrentContext(caller_);
    }
    HeadlessContext(const HeadlessContext&) = delete;
    HeadlessContext& operator=(const HeadlessContext&) = delete;

private:
    ImGuiContext* caller_;
    ImGuiContext* context_;
    FontSet fonts_;
};

} // namespace pelab
