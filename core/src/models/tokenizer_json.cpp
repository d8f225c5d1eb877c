// tokenizer_json.cpp — Hugging Face's tokenizer.json read as a byte-level BPE
// (BpeTokenizer::LoadTokenizerJson, pelab/models/bpe_tokenizer.h), and the scanner of Llama 3's
// and Qwen's pre-tokenizer pattern.
#include "models/unicode_text.h"
#include "pelab/models/bpe_tokenizer.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace pelab {

namespace {

using nlohmann::json;

// The patterns as the tokenizer.json files write them (Split's "pattern": {"Regex": …}).
constexpr const char* kLlama3Pattern =
    R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";
constexpr const char* kQwen2Pattern =
    R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";

bool IsLineBreak(char32_t c) {
    return c == U'\r' || c == U'\n';
}

const json* Member(const json& object, const char* key) {
    if (!object.is_object()) return nullptr;
    const auto at = object.find(key);
    return at == object.end() || at->is_null() ? nullptr : &*at;
}

std::string TypeOf(const json* node) {
    const json* type = node ? Member(*node, "type") : nullptr;
    return type && type->is_string() ? type->get<std::string>() : std::string();
}

// The pre-tokenizer: Split on a known pattern (Isolated) then ByteLevel without its own regex,
// or ByteLevel alone with GPT-2's regex. ok or why PE Lab does not run it.
Status ReadPreTokenizer(const json& doc, PiecePattern* pattern) {
    const json* pre = Member(doc, "pre_tokenizer");
    const std::string type = TypeOf(pre);
    if (type == "ByteLevel") {
        const json* regex = Member(*pre, "use_regex");
        if (regex && regex->is_boolean() && !regex->get<bool>())
            return std::string("tokenizer.json: a ByteLevel pre_tokenizer without its regex is "
                               "not one PE Lab runs");
        if (const json* prefix = Member(*pre, "add_prefix_space"); prefix && *prefix != false)
            return std::string("tokenizer.json: ByteLevel's add_prefix_space is not computed");
        *pattern = PiecePattern::Gpt2;
        return {};
    }
    const json* parts = type == "Sequence" ? Member(*pre, "pretokenizers") : nullptr;
    if (!parts || !parts->is_array() || parts->size() != 2 || TypeOf(&(*parts)[0]) != "Split" ||
        TypeOf(&(*parts)[1]) != "ByteLevel")
        return "tokenizer.json: pre_tokenizer " + (type.empty() ? "(none)" : type) +
               " is not one PE Lab runs (it runs GPT-2's ByteLevel and Llama 3's and Qwen's "
               "Split + ByteLevel)";
    const json& split = (*parts)[0];
    const json* regex = Member(split, "pattern") ? Member(split["pattern"], "Regex") : nullptr;
    const json* behavior = Member(split, "behavior");
    const json* invert = Member(split, "invert");
    const std::string text = regex && regex->is_string() ? regex->get<std::string>() : "";
    if (text == kLlama3Pattern)
        *pattern = PiecePattern::Llama3;
    else if (text == kQwen2Pattern)
        *pattern = PiecePattern::Qwen2;
    else
        return "tokenizer.json: the pre_tokenizer's split pattern " +
               json(text.substr(0, 60)).dump(-1, ' ', false, json::error_handler_t::replace) +
               (text.size() > 60 ? "…" : "") +
               " is not Llama 3's or Qwen's, the ones PE Lab runs (it is no regex engine)";
    if (!behavior || *behavior != "Isolated" || (invert && *invert != false))
        return std::string("tokenizer.json: the pre_tokenizer's split must be Isolated, not "
                           "inverted");
    const json* prefix = Member((*parts)[1], "add_prefix_space");
    if (prefix && *prefix != false)
        return std::string("tokenizer.json: ByteLevel's add_prefix_space is not computed");
    if (const json* regex2 = Member((*parts)[1], "use_regex"); regex2 && *regex2 != false)
        return std::string("tokenizer.json: a ByteLevel after the split that splits again "
                           "(use_regex) is not computed");
    return {};
}

// The ids TemplateProcessing's "single" puts before and after a text (Llama 3's BOS).
Status ReadTemplate(const json& doc, std::vector<int>* prefix, std::vector<int>* suffix) {
    const json* post = Member(doc, "post_processor");
    std::vector<const json*> processors;
    if (TypeOf(post) == "Sequence" && Member(*post, "processors") &&
        (*post)["processors"].is_array())
        for (const json& each : (*post)["processors"])
            processors.push_back(&each);
    else if (post)
        processors.push_back(post);
    for (const json* processor : processors) {
        const std::string type = TypeOf(processor);
        if (type == "ByteLevel") continue; // offsets only
        if (type != "TemplateProcessing")
            return "tokenizer.json: post_processor " + type + " is not one PE Lab computes";
        const json* single = Member(*processor, "single");
        const json* specials = Member(*processor, "special_tokens");
        if (!single || !single->is_array())
            return std::string("tokenizer.json: TemplateProcessing has no \"single\" list");
        bool after = false;
        for (const json& piece : *single) {
            if (const json* sequence = Member(piece, "Sequence")) {
                const json* which = Member(*sequence, "id");
                if (after || !which || *which != "A")
                    return std::string("tokenizer.json: TemplateProcessing's single must hold "
                                       "the text ($A) once");
                after = true;
                continue;
            }
            const json* special = Member(piece, "SpecialToken");
            const json* name = special ? Member(*special, "id") : nullptr;
            const json* entry = name && name->is_string() && specials
                                    ? Member(*specials, name->get<std::string>().c_str())
                                    : nullptr;
            const json* ids = entry ? Member(*entry, "ids") : nullptr;
            if (!ids || !ids->is_array())
                return std::string("tokenizer.json: TemplateProcessing names a special token "
                                   "its special_tokens does not give");
            for (const json& id : *ids) {
                if (!id.is_number_integer() || id.get<long long>() < 0 ||
                    id.get<long long>() >= (1 << 30))
                    return std::string("tokenizer.json: a special token's id must be a whole "
                                       "number from 0");
                (after ? suffix : prefix)->push_back(id.get<int>());
            }
        }
        if (!after)
            return std::string("tokenizer.json: TemplateProcessing's single must hold the text "
                               "($A) once");
    }
    return {};
}

} // namespace

Status SplitLlama3Pieces(const std::string& text, int max_digits,
                         std::vector<std::string>* pieces) {
    std::vector<char32_t> c;
    std::vector<std::size_t> at;
    if (Status error = detail::DecodeUtf8(text, &c, &at); !error.ok()) return error;
    const std::size_t n = c.size();
    const auto run = [&](std::size_t from, auto in_class) {
        while (from < n && in_class(c[from]))
            ++from;
        return from;
    };
    const auto lower = [](char32_t x) { return x >= U'A' && x <= U'Z' ? x + 32 : x; };
    std::size_t i = 0;
    while (i < n) {
        std::size_t end = i;
        // (?i:'s|'t|'re|'ve|'m|'ll|'d)
        if (c[i] == U'\'' && i + 1 < n) {
            const char32_t a = lower(c[i + 1]), b = i + 2 < n ? lower(c[i + 2]) : 0;
            if (a == U's' || a == U't' || a == U'm' || a == U'd')
                end = i + 2;
            else if ((a == U'r' && b == U'e') || (a == U'v' && b == U'e') ||
                     (a == U'l' && b == U'l'))
                end = i + 3;
        }
        // [^\r\n\p{L}\p{N}]?\p{L}+
        if (end == i) {
            if (detail::IsLetter(c[i]))
                end = run(i, detail::IsLetter);
            else if (!IsLineBreak(c[i]) && !detail::IsNumber(c[i]) && i + 1 < n &&
                     detail::IsLetter(c[i + 1]))
                end = run(i + 1, detail::IsLetter);
        }
        // \p{N}{1,max}
        if (end == i && detail::IsNumber(c[i])) {
            end = i + 1;
            while (end < n && end - i < static_cast<std::size_t>(max_digits) &&
                   detail::IsNumber(c[end]))
                ++end;
        }
        //  ?[^\s\p{L}\p{N}]+[\r\n]*
        if (end == i) {
            const std::size_t from =
                c[i] == U' ' && i + 1 < n && detail::IsOther(c[i + 1]) ? i + 1 : i;
            if (detail::IsOther(c[from])) end = run(run(from, detail::IsOther), IsLineBreak);
        }
        if (end == i && detail::IsSpace(c[i])) {
            const std::size_t last = run(i, detail::IsSpace);
            // \s*[\r\n]+: up to the run's last line break.
            std::size_t line = last;
            while (line > i && !IsLineBreak(c[line - 1]))
                --line;
            if (line > i)
                end = line;
            else // \s+(?!\S)|\s+
                end = last == n || last - i == 1 ? last : last - 1;
        }
        if (end == i) end = i + 1; // unreachable: every character is in one of the classes
        pieces->push_back(text.substr(at[i], at[end] - at[i]));
        i = end;
    }
    return {};
}

Status BpeTokenizer::LoadTokenizerJson(const std::string& text, BpeTokenizer* out) {
    if (text.size() > kMaxVocabularyBytes)
        return "tokenizer.json is larger than " + std::to_string(kMaxVocabularyBytes >> 20) +
               " MiB";
    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::parse_error& e) {
        return "tokenizer.json is not JSON (at byte " + std::to_string(e.byte) + ")";
    }
    if (!doc.is_object()) return std::string("tokenizer.json is not a JSON object");
    const json* model = Member(doc, "model");
    if (TypeOf(model) != "BPE")
        return "tokenizer.json: model " + (TypeOf(model).empty() ? "(none)" : TypeOf(model)) +
               " is not a byte-level BPE (the one PE Lab runs)";
    for (const char* key : {"continuing_subword_prefix", "end_of_word_suffix"})
        if (const json* value = Member(*model, key);
            value && !(value->is_string() && value->get_ref<const std::string&>().empty()))
            return std::string("tokenizer.json: model.") + key + " is not computed";
    if (const json* fallback = Member(*model, "byte_fallback"); fallback && *fallback == true)
        return std::string("tokenizer.json: model.byte_fallback is not computed");
    const json* normalizer = Member(doc, "normalizer");
    if (normalizer && TypeOf(normalizer) != "NFC")
        return "tokenizer.json: normalizer " + TypeOf(normalizer) +
               " is not computed (PE Lab computes none or NFC: Llama 3's, Qwen's)";
    const json* vocab = Member(*model, "vocab");
    const json* merges = Member(*model, "merges");
    if (!vocab || !vocab->is_object() || !merges || !merges->is_array())
        return std::string("tokenizer.json: model must hold a vocab object and a merges list");
    // The vocabulary and merges through the vocab.json / merges.txt reader (one set of checks).
    std::string merges_text;
    for (const json& merge : *merges) {
        if (merge.is_string()) {
            merges_text += merge.get<std::string>() + "\n";
        } else if (merge.is_array() && merge.size() == 2 && merge[0].is_string() &&
                   merge[1].is_string()) {
            merges_text += merge[0].get<std::string>() + " " + merge[1].get<std::string>() + "\n";
        } else {
            return std::string("tokenizer.json: each merge must be \"a b\" or [\"a\", \"b\"]");
        }
        if (merges_text.size() > kMaxVocabularyBytes)
            return std::string("tokenizer.json: its merges are too many");
    }
    BpeTokenizer tokenizer;
    if (Status error = Load(vocab->dump(), merges_text, &tokenizer); !error.ok()) {
        std::string message = error.message();
        for (const auto& [from, to] :
             {std::pair<std::string, std::string>{"vocab.json", "model.vocab"},
              {"merges.txt", "model.merges"}})
            if (message.rfind(from, 0) == 0)
                message = "tokenizer.json's " + to + message.substr(from.size());
        return message;
    }
    if (Status error = ReadPreTokenizer(doc, &tokenizer.pattern_); !error.ok()) return error;
    tokenizer.nfc_ = normalizer != nullptr;
    if (const json* ignore = Member(*model, "ignore_merges")) {
        if (!ignore->is_boolean())
            return std::string("tokenizer.json: model.ignore_merges must be true or false");
        tokenizer.ignore_merges_ = ignore->get<bool>();
    }
    const json* added = Member(doc, "added_tokens");
    if (added && !added->is_array())
        return std::string("tokenizer.json: added_tokens must be a list");
    if (added)
        for (const json& token : *added) {
            for (const char* flag : {"lstrip", "rstrip", "single_word", "normalized"})
                if (const json* value = Member(token, flag); value && *value != false)
                    return std::string("tokenizer.json: an added token's ") + flag +
                           " is not computed (PE Lab matches added tokens as written)";
            const json* id = Member(token, "id");
            const json* content = Member(token, "content");
            if (!id || !id->is_number_integer() || id->get<long long>() < 0 ||
                id->get<long long>() >= (1 << 30) || !content || !content->is_string() ||
                content->get<std::string>().empty())
                return std::string("tokenizer.json: each added token needs a whole id from 0 and "
                                   "a content");
            const int number = id->get<int>();
            if (std::any_of(tokenizer.added_.begin(), tokenizer.added_.end(),
                            [&](const auto& other) { return other.first == *content; }))
                return "tokenizer.json: two added tokens are " +
                       content->dump(-1, ' ', false, json::error_handler_t::replace);
            tokenizer.added_.emplace_back(content->get<std::string>(), number);
            if (static_cast<std::size_t>(number) >= tokenizer.symbol_of_.size())
                tokenizer.symbol_of_.resize(static_cast<std::size_t>(number) + 1);
            tokenizer.symbol_of_[static_cast<std::size_t>(number)] = content->get<std::string>();
        }
    std::stable_sort(tokenizer.added_.begin(), tokenizer.added_.end(),
                     [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
    if (Status error = ReadTemplate(doc, &tokenizer.prefix_ids_, &tokenizer.suffix_ids_);
        !error.ok())
        return error;
    for (const std::vector<int>* ids : {&tokenizer.prefix_ids_, &tokenizer.suffix_ids_})
        for (int id : *ids)
            if (static_cast<std::size_t>(id) >= tokenizer.symbol_of_.size() ||
                tokenizer.symbol_of_[static_cast<std::size_t>(id)].empty())
                return "tokenizer.json: TemplateProcessing adds id " + std::to_string(id) +
                       ", which is no token of the vocabulary or the added tokens";
    *out = std::move(tokenizer);
    return {};
}

} // namespace pelab
