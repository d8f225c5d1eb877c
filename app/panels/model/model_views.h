// model_views.h — what the Your model panel's two view files share (model_views.cpp: a learned
// table's views; model_rope_views.cpp: RoPE, T5 and ALiBi).
#pragma once

#include "panels/explanation.h"
#include "panels/model/panel_model.h"
#include "widgets/plot.h"
#include "widgets/theme.h"

#include <string>
#include <vector>

namespace pelab {

/// The least and largest of values, widened on each side by a twentieth of their span or a
/// fiftieth of their size, whichever is more (all zeros: by 1).
plot::Range PaddedRange(const std::vector<double>& values);
/// Each row's norm divided by the table's median norm (its own scale: a learned table's norms and
/// the sinusoidal table's differ a hundredfold), the norms as they are when the median is 0.
std::vector<double> NormsOverMedian(const TableReport& table);
/// The norms plot's legend entry: "name (median 0.11)", or "name (median 0: not scaled)".
std::string NormsLegend(const std::string& name, const TableReport& table);
/// The Pairing view's arc of the pair at t (0: the fastest, 1: the slowest): a stretch of the
/// sequential map that reads on the theme's background, its lighter part on a dark one (its
/// darkest blue vanished there), its darker part on a light one (its palest yellow did).
ImU32 PairArcColour(const Theme& theme, double t);
/// A view's sentence, wrapped, recorded under record.
void ViewSentence(FrameContext& frame, const Explanation& sentence, const char* record);

} // namespace pelab
