// model_views.h — what the Your model panel's two view files share (model_views.cpp: a learned
// table's views; model_rope_views.cpp: RoPE, T5 and ALiBi).
#pragma once

#include "panels/explanation.h"
#include "panels/model/panel_model.h"
#include "widgets/plot.h"

#include <vector>

namespace pelab {

/// The least and largest of values, widened by a twentieth on each side (a flat series by 1).
plot::Range PaddedRange(const std::vector<double>& values);
/// A view's sentence, wrapped, recorded under record.
void ViewSentence(FrameContext& frame, const Explanation& sentence, const char* record);

} // namespace pelab
