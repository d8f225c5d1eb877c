#include "cli/cli_checks.h"

#include "cli/cli.h"
#include "io/json_input.h"
#include "io/model_files.h"
#include "io/suggest.h"
#include "pelab/base/error.h"
#include "pelab/export/export.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

namespace pelab {

// A decimal number as a person types it: digits, one optional point, an optional exponent; no
// spaces (CLI11 would skip leading ones), no "0x10" (hexadecimal) and no "010" (which CLI11
// reads as octal 8).
bool IsPlainDecimal(const std::string& text) {
    std::size_t at = 0;
    if (at < text.size() && (text[at] == '+' || text[at] == '-')) ++at;
    const std::size_t integer_start = at;
    while (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at])))
        ++at;
    const std::size_t integer_digits = at - integer_start;
    if (integer_digits > 1 && text[integer_start] == '0') return false; // "010"
    std::size_t fraction_digits = 0;
    if (at < text.size() && text[at] == '.') {
        ++at;
        while (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at])))
            ++at, ++fraction_digits;
    }
    if (integer_digits + fraction_digits == 0) return false;
    if (at < text.size() && (text[at] == 'e' || text[at] == 'E')) {
        ++at;
        if (at < text.size() && (text[at] == '+' || text[at] == '-')) ++at;
        const std::size_t exponent_start = at;
        while (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at])))
            ++at;
        if (at == exponent_start) return false;
    }
    return at == text.size();
}

CLI::Validator PlainNumber() {
    return CLI::Validator(
        [](std::string& text) {
            if (!IsPlainDecimal(text))
                return "must be a decimal number like 512 or 0.5 (got " + Excerpt(text) + ")";
            // 1e309 would otherwise arrive as infinity and be reported as "inf". Out of range
            // with a negative exponent is a number too small to hold, which reads as 0.
            double value = 0;
            const char* begin = text.data() + (text[0] == '+' ? 1 : 0);
            const std::size_t exponent = text.find_first_of("eE");
            const bool tiny = exponent != std::string::npos && text[exponent + 1] == '-';
            if (std::from_chars(begin, text.data() + text.size(), value).ec ==
                    std::errc::result_out_of_range &&
                !tiny)
                return "is larger than any number PE Lab can hold (about 1.8e308; got " +
                       Excerpt(text) + ")";
            return std::string();
        },
        "NUMBER");
}

// A whole number in [min, max], written as a plain decimal: "1e3" is 1000, and "1.5", "1e12" or
// "2147483648" get the range instead of CLI11's "Could not convert". The text is rewritten as
// the integer's digits, which CLI11 then converts.
CLI::Validator WholeNumber(long long min, long long max) {
    return CLI::Validator(
        [min, max](std::string& text) {
            std::string range = "must be a whole number in [" + std::to_string(min) + ", " +
                                std::to_string(max) + "] (got " + Excerpt(text) + ")";
            if (!IsPlainDecimal(text)) return range;
            double value = 0;
            const char* begin = text.data() + (text[0] == '+' ? 1 : 0);
            if (std::from_chars(begin, text.data() + text.size(), value).ec != std::errc() ||
                value != std::floor(value) || value < static_cast<double>(min) ||
                value > static_cast<double>(max))
                return range;
            text = std::to_string(static_cast<long long>(value));
            return std::string();
        },
        "INT");
}

// A file name: an empty one would silently mean "no file" (stdout, or no scene).
CLI::Validator FileName() {
    return CLI::Validator(
        [](std::string& text) {
            return text.empty() ? std::string("needs a file name (got nothing)") : std::string();
        },
        "FILE", "FILE"); // description (shown in --help) and name (UnclassifiedFileOptions)
}

CLI::Validator NonEmpty(const std::string& what) {
    return CLI::Validator(
        [what](std::string& text) {
            return text.empty() ? "needs " + what + " (got nothing)" : std::string();
        },
        "TEXT");
}

// A seed is a whole number in [0, 2^64 − 1]: "-1" or 2^64 must not wrap around silently.
CLI::Validator Seed() {
    return CLI::Validator(
        [](std::string& text) {
            const std::string max = "18446744073709551615";
            const bool digits =
                !text.empty() && text.size() <= max.size() &&
                (text.size() == 1 || text[0] != '0') && // "010" would be read as octal
                std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
            if (!digits || (text.size() == max.size() && text > max))
                return "must be a whole number in [0, " + max + "] (got " + Excerpt(text) + ")";
            return std::string();
        },
        "SEED");
}

// "WxH" with each side in [64, 8192], digits only. A side that is a whole number out of range
// (a minus sign, too many digits) gets the range, not the shape.
std::string ParseSize(const std::string& text, int* width, int* height) {
    const std::size_t x = text.find('x');
    const auto whole_number = [](const std::string& part) {
        const std::size_t first = !part.empty() && part[0] == '-' ? 1 : 0;
        return part.size() > first &&
               std::all_of(part.begin() + static_cast<std::ptrdiff_t>(first), part.end(),
                           [](char c) { return c >= '0' && c <= '9'; });
    };
    if (x == std::string::npos || !whole_number(text.substr(0, x)) ||
        !whole_number(text.substr(x + 1)))
        return "--size must look like WIDTHxHEIGHT, e.g. 1280x800 (got " + Excerpt(text) + ")";
    const auto side = [](const std::string& part) {
        if (part[0] == '-') return -1;
        return part.size() > 5 ? 99999 : std::stoi(part);
    };
    *width = side(text.substr(0, x));
    *height = side(text.substr(x + 1));
    if (*width < 64 || *width > 8192 || *height < 64 || *height > 8192)
        return "--size: each side must be a whole number of pixels in [64, 8192] (got " +
               Excerpt(text) + ")";
    return {};
}

namespace {

// Where writing to a file that does not exist yet lands: the folder's canonical path plus the
// name, so "run.json", "./run.json" and "adir/../run.json" come out the same. (A link that
// points nowhere is refused by check_writable before this matters.)
std::filesystem::path WriteTarget(std::filesystem::path path) {
    namespace fs = std::filesystem;
    std::error_code error;
    path = fs::absolute(path, error);
    const fs::path folder = fs::weakly_canonical(path.parent_path(), error);
    return error ? path.lexically_normal() : folder / path.filename();
}

} // namespace

bool SameFile(const std::string& a, const std::string& b) {
    namespace fs = std::filesystem;
    if (a.empty() || b.empty() || a == "-" || b == "-") return false;
    if (a == b) return true;
    std::error_code error_a, error_b;
    if (fs::exists(a, error_a) && fs::exists(b, error_b)) {
        std::error_code error;
        return fs::equivalent(a, b, error) && !error; // same device and inode: also hard links
    }
    return WriteTarget(a) == WriteTarget(b);
}

std::string CommandPath(const CLI::App& command) {
    const CLI::App* parent = command.get_parent();
    return parent == nullptr ? command.get_name() : CommandPath(*parent) + " " + command.get_name();
}

FileUse FileOptionUse(const std::string& command, const std::string& name) {
    if (name == "--out" || name == "--plot" || name == "--state-out" || name == "--widget-rects")
        return FileUse::Writes;
    if (name == "--model") return FileUse::ReadsCheckpoint;
    if (command == "pelab model inspect" || command == "pelab model run")
        if (name == "file") return FileUse::ReadsCheckpoint;
    if (command == "pelab model tokenize" && name == "folder") return FileUse::ReadsTokenizer;
    // A config.json or its folder: the checkpoint there (weights, config) is never written over.
    if ((command == "pelab rope table" || command == "pelab rope check") && name == "config")
        return FileUse::ReadsCheckpoint;
    if (name == "--cos" || name == "--sin" || name == "--inv-freq" || name == "--angles")
        return FileUse::Reads;
    if (name == "--open") return FileUse::Reads;
    if (name == "--scene" || name == "--lesson" || name == "--run" || name == "--config" ||
        name == "--vocab" || name == "--merges" || name == "--texts-file" || name == "file")
        return FileUse::Reads;
    return FileUse::None;
}

namespace {
// "--out", or a positional's name ("file"); hidden options too (CLI11's get_name gives "").
std::string OptionName(const CLI::Option& option) {
    return option.get_lnames().empty() ? option.get_single_name()
                                       : "--" + option.get_lnames().front();
}
} // namespace

std::string ExplainUnknownWords(const CLI::App& app) {
    // The deepest command parsed: the words left over belong to it.
    const CLI::App* command = &app;
    for (;;) {
        const std::vector<const CLI::App*> below =
            command->get_subcommands([](const CLI::App* each) { return each->parsed(); });
        if (below.empty()) break;
        command = below.front();
    }
    std::vector<std::string> names;
    for (const CLI::App* each : command->get_subcommands([](const CLI::App*) { return true; }))
        names.push_back(each->get_name());
    std::string word; // the first word left over that is not an option
    for (const std::string& each : app.remaining(true))
        if (!each.empty() && each.front() != '-') {
            word = each;
            break;
        }
    const std::string path = CommandPath(*command);
    const std::string help = " (see " + path + " --help)";
    std::string list;
    for (std::size_t i = 0; i < names.size(); ++i)
        list += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
    if (!names.empty() && !word.empty()) {
        const std::string closest = ClosestNames(word, names);
        return "unknown command " + Excerpt(word) +
               (closest.empty() ? std::string() : " (did you mean " + closest + "?)") + "; " +
               path + "'s commands are " + list + help;
    }
    if (!names.empty() && command->get_require_subcommand_min() > 0)
        return "a command is required after " + path + ": " + list + help;
    if (!word.empty()) return "unexpected argument " + Excerpt(word) + " for " + path + help;
    return {};
}

std::vector<std::string> UnclassifiedFileOptions(CLI::App& app) {
    std::vector<std::string> found;
    const std::string path = CommandPath(app);
    for (CLI::Option* option : app.get_options([](CLI::Option*) { return true; })) {
        bool file = false;
        try {
            file = option->get_validator("FILE") != nullptr;
        } catch (const CLI::OptionNotFound&) {
        }
        if (file && FileOptionUse(path, OptionName(*option)) == FileUse::None)
            found.push_back(path + " " + OptionName(*option));
    }
    for (CLI::App* command : app.get_subcommands([](CLI::App*) { return true; }))
        for (std::string& each : UnclassifiedFileOptions(*command))
            found.push_back(std::move(each));
    return found;
}

std::string CheckNoInputIsWritten(const CLI::App& app) {
    struct Named {
        std::string option, path;
    };
    std::vector<Named> outputs;
    std::vector<std::pair<Named, FileRead>> inputs; // the option, and one file it reads
    // The parsed command and every command above it (pelab's own options are the window's).
    std::vector<const CLI::App*> chain{&app};
    for (;;) {
        const std::vector<const CLI::App*> below = chain.back()->get_subcommands(
            [](const CLI::App* command) { return command->parsed(); });
        if (below.empty()) break;
        chain.push_back(below.front());
    }
    for (const CLI::App* command : chain) {
        const std::string path = CommandPath(*command);
        for (const CLI::Option* option :
             command->get_options([](const CLI::Option* each) { return each->count() > 0; })) {
            const std::string name = OptionName(*option);
            const FileUse use = FileOptionUse(path, name);
            for (const std::string& value : option->results()) {
                if (value.empty() || value == "-") continue;
                const Named named{name, value};
                if (use == FileUse::Writes) outputs.push_back(named);
                if (use == FileUse::Reads) inputs.push_back({named, {value, "the file given"}});
                // A tokenizer folder is most often a checkpoint's: its weights and config are
                // never written over either.
                if (use == FileUse::ReadsCheckpoint || use == FileUse::ReadsTokenizer)
                    for (FileRead& file : FilesOfCheckpoint(value))
                        inputs.push_back({named, std::move(file)});
                if (use == FileUse::ReadsTokenizer)
                    for (FileRead& file : FilesOfTokenizer(value))
                        inputs.push_back({named, std::move(file)});
            }
        }
    }
    for (const Named& output : outputs)
        for (const auto& [input, file] : inputs) {
            if (!SameFile(output.path, file.path)) continue;
            const bool positional = input.option.rfind("--", 0) != 0;
            std::string what;
            if (file.path == input.path)
                what =
                    positional ? "the file given to this command" : "the " + input.option + " file";
            else
                what =
                    file.what + " (" + Excerpt(file.path) + ") of " +
                    (positional ? Excerpt(input.path) : input.option + " " + Excerpt(input.path));
            return output.option + ": " + Excerpt(output.path) + " is " + what +
                   ", which this command reads; writing there would replace it (choose another "
                   "name)";
        }
    return {};
}

bool WritesToStdout(const std::string& out) {
    return out.empty() || out == "-";
}

bool IsStandardOutput(const std::string& path) {
    struct stat file {
    }, output{};
    return !path.empty() && ::stat(path.c_str(), &file) == 0 &&
           ::fstat(STDOUT_FILENO, &output) == 0 && file.st_dev == output.st_dev &&
           file.st_ino == output.st_ino;
}

int FlushStandardOutput() {
    errno = 0;
    if (std::cout.flush()) return kExitOk;
    const int cause = errno;
    std::cout.clear();
    std::cerr << "pelab: cannot write to standard output: "
              << (cause != 0 ? std::strerror(cause) : "the write failed") << "\n";
    return kExitRuntimeFailure;
}

int WriteStandardOutput(const std::string& text) {
    errno = 0;
    std::cout << text << std::flush;
    if (std::cout) return kExitOk;
    const int cause = errno;
    std::cout.clear();
    std::cerr << "pelab: cannot write to standard output: "
              << (cause != 0 ? std::strerror(cause) : "the write failed") << "\n";
    return kExitRuntimeFailure;
}

bool CheckOutputFolder(const std::string& out, std::string* error) {
    if (WritesToStdout(out)) return true;
    *error = check_writable(out).message();
    return error->empty();
}

int UsageError(const std::string& message) {
    std::cerr << "pelab: " << PrintableLine(message) << "\n";
    return kExitBadUsage;
}

int RuntimeError(const std::string& message) {
    std::cerr << "pelab: " << PrintableLine(message) << "\n";
    return kExitRuntimeFailure;
}

void Emit(const std::string& out, const std::function<void(std::ostream&)>& writer) {
    if (WritesToStdout(out)) {
        // The same writer as for files, so a full disk is "No space left on device" here too.
        std::cout.flush();
        write_to_descriptor(STDOUT_FILENO, "to standard output", writer);
    } else {
        write_file_atomically(out, writer);
    }
}

} // namespace pelab
