// pelab/positional_methods.h — the training lab's positional methods, one row each: the
// enumerator of PositionalKind and the name that --pe, run files and the app use.
//
// A method is one file, core/src/positional/<name>.cpp, defining <Enumerator>Method(): the
// parameters it owns and its hooks into the pass (add to the input, turn the queries and keys,
// bias the scores; core/src/positional/method.h). Adding a method to the trainer is that file
// and its row here; the gradient checks, the name lists and --pe's help follow from the table
// (the app's colour, marker and tab come from its own row, app/panels/train/train_methods.cpp).
#pragma once

// X(Enumerator, "name"), in the order the lab shows them.
#define PELAB_POSITIONAL_METHODS(X)                                                                \
    X(None, "none")                                                                                \
    X(Sinusoidal, "sinusoidal")                                                                    \
    X(Learned, "learned")                                                                          \
    X(Rope, "rope")                                                                                \
    X(Alibi, "alibi")                                                                              \
    X(T5, "t5")
