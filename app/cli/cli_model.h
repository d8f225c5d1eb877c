// cli_model.h — `pelab model inspect`: what a checkpoint keeps of positions, and every number the
// "Your model" panel shows of it, at a terminal (docs/models.md).
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace pelab {

struct ModelOptions {
    std::string path;   ///< the weights: .safetensors, model.safetensors.index.json, .npy, a folder
    std::string config; ///< "": config.json beside the weights
    std::string table;  ///< a 2-D tensor to read as a position table
    bool json = false;
    bool full = false; ///< with --json: the cosine matrices too
    std::string out;   ///< "" or "-": stdout
    // model run
    std::string tokens;                 ///< comma-separated token ids
    std::vector<std::string> run_texts; ///< texts to run (at most two)
    std::vector<std::string> positions; ///< the switches to run (default: trained)
    int top = 5;                        ///< next-token guesses printed per switch
    bool last_only = false;             ///< the last token's logits only (no loss)
    // model tokenize
    std::string vocab, merges; ///< vocab.json and merges.txt ("": in the folder given)
    std::string text;          ///< the text to encode
    std::string texts_file;    ///< a JSON array of texts to encode
};

/// Adds `model inspect`, `model run` and `model tokenize` to app; returns the inspect subcommand
/// and sets *run and *tokenize.
CLI::App* AddModelCommand(CLI::App& app, ModelOptions& options, CLI::App** run,
                          CLI::App** tokenize);
/// Exit 0; 2 for a malformed or unreadable file (one line naming it); 1 when --out cannot be
/// written.
int RunModelInspect(const ModelOptions& options);
/// `pelab model run`: GPT-2 forward on the tokens under each position switch. Exit 0; 2 for a
/// bad file, token or switch (one line); 1 when --out cannot be written.
int RunModelRun(const ModelOptions& options);
/// `pelab model tokenize`: GPT-2's token ids of a text (or of each text of a JSON array). Exit 0;
/// 2 for bad files or text.
int RunModelTokenize(const ModelOptions& options);

} // namespace pelab
