// glossary.h — Help → Glossary: every symbol the panels use, in plain words, so that a student
// who meets ω_i or QKᵀ on screen can look it up without leaving the app.
#pragma once

namespace pelab {

struct GlossaryEntry {
    const char* term;
    const char* meaning;
};

/// The entries, in the order a lesson meets them.
const GlossaryEntry* GlossaryEntries(int* count);

/// The Glossary window while *open (its close button clears it).
void DrawGlossary(bool* open);

} // namespace pelab
