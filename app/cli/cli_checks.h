// cli_checks.h — what every command shares: the validators of its options (plain decimal numbers:
// no octal, no hexadecimal, no spaces; non-empty file names; 64-bit seeds; WIDTHxHEIGHT sizes),
// its error messages and exit codes, and writing its output to stdout or a file.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace pelab {

/// Digits, one optional point, an optional exponent: "512", "0.5", "1e-3"; not "010" or "0x10".
bool IsPlainDecimal(const std::string& text);
CLI::Validator PlainNumber();
/// Refuses an empty file name (it would silently mean "no file").
CLI::Validator FileName();
/// Refuses an empty value of an option that names a thing that is not a file ("a tensor name").
CLI::Validator NonEmpty(const std::string& what);
/// A whole number in [0, 2^64 − 1], refused rather than wrapped.
CLI::Validator Seed();
/// A whole number in [min, max] ("1e3" allowed); anything else gets the range in its message.
CLI::Validator WholeNumber(long long min, long long max);
/// "WxH" with each side in [64, 8192]; "" or the message for --size.
std::string ParseSize(const std::string& text, int* width, int* height);

/// Two paths that name one file, so that writing one replaces the other: the same device and
/// inode when both exist (links, hard links, "./x" and "x"); otherwise the same folder (its
/// canonical path) and the same name, so "run.json" and "adir/../run.json" are one file before
/// either exists. Standard output ("" or "-") is no file.
bool SameFile(const std::string& a, const std::string& b);
/// What a command does with a file option. Every option that takes a file name (FileName()) has
/// one (tests/cli_files_test.cpp checks that none is left out), so that CheckNoInputIsWritten
/// sees every file of every command.
enum class FileUse { None, Reads, ReadsCheckpoint, ReadsTokenizer, Writes };
/// The use of option `name` ("--out", or a positional's name, "file") of the command whose
/// chain of names is `command` ("pelab model inspect").
FileUse FileOptionUse(const std::string& command, const std::string& name);
/// After parsing: "" or the message when an output of the parsed command is a file the command
/// reads — the file named, a checkpoint's weights, each shard its index names, the config.json,
/// vocab.json and merges.txt beside it, a tokenizer's files — however it is spelled (./, ..,
/// links, hard links). Nothing has been read or written yet: the rule of docs/reliability.md
/// that no command ever writes over its own input.
std::string CheckNoInputIsWritten(const CLI::App& app);
/// Every option of app and its subcommands that checks FileName() but has FileUse::None, as
/// "pelab model run --foo".
std::vector<std::string> UnclassifiedFileOptions(CLI::App& app);
/// The chain of names of a command ("pelab model inspect").
std::string CommandPath(const CLI::App& command);
/// After a parse that left words over or missed a required command: what went wrong, in the
/// order typed — "unknown command \"modle\" (did you mean \"model\"?); pelab's commands:
/// export, …", "a command is required after pelab model: inspect, run or tokenize", or
/// "unexpected argument \"b\" for pelab model inspect" — with the help to see. "" when neither
/// happened (another parse error: CLI11's own message stands).
std::string ExplainUnknownWords(const CLI::App& app);

/// Whether out means standard output ("" or "-").
bool WritesToStdout(const std::string& out);
/// Whether path names the file standard output already goes to (/dev/stdout, /proc/self/fd/1,
/// or the file the shell redirected it to): writing it would replace or mix with that output.
bool IsStandardOutput(const std::string& path);
/// Flushes standard output: kExitOk, or kExitRuntimeFailure with "pelab: cannot write to
/// standard output: CAUSE" on stderr (a full disk, a closed pipe).
int FlushStandardOutput();
/// Writes text to standard output in one write and flushes it, as FlushStandardOutput reports:
/// for a listing longer than stdio's buffer, whose failed write the flush after it cannot name.
int WriteStandardOutput(const std::string& text);
/// A runtime failure found before any work: "" in *error when out can be written, else why.
bool CheckOutputFolder(const std::string& out, std::string* error);
/// "pelab: message" on stderr; exit code 2 (bad usage) or 1 (runtime failure).
int UsageError(const std::string& message);
int RuntimeError(const std::string& message);
/// Sends the writer's bytes to standard output or, atomically, to the file out; throws IoError.
void Emit(const std::string& out, const std::function<void(std::ostream&)>& writer);

} // namespace pelab
