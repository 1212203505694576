#pragma once
// Whole files in and out: a size-limited read that refuses directories, and a save that replaces regular
// files atomically and writes through standard output, character devices and FIFOs (docs/formats.md,
// 'Files').
#include <cstddef>
#include <expected>
#include <string>
#include <string_view>

namespace lp::core {

// The one size limit for files: nothing larger is read (files, standard input) or written, so that what the
// program writes, it reads.
inline constexpr std::size_t kMaxFileBytes = 64u * 1024u * 1024u;

// The file's text, or why it cannot be read (missing, a directory, over the 64 MiB input limit).
std::expected<std::string, std::string> readTextFile(const std::string& path);
// All of standard input, under the same limit: reading stops once the input is known to be too large.
std::expected<std::string, std::string> readStandardInput();

// Saves `content` at `path`:
// - "-", /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N write to that open stream;
// - an existing character device (/dev/null) or FIFO is written through, never replaced;
// - a directory, block device or socket is refused with the reason;
// - anything else (a regular file, new or existing, or a symbolic link to one, which stays a link) gets a
//   temporary file beside it that is renamed over it: the old file survives a failure, and SIGINT, SIGTERM or
//   SIGHUP during the save remove the temporary file.
// Text over kMaxFileBytes is refused before anything is written.
std::expected<void, std::string> writeFileAtomically(const std::string& path, std::string_view content);
// Whether writeFileAtomically(path, ...) writes to one of this process's open streams rather than a file
// ("-", /dev/stdout, ...): callers then say no "wrote FILE".
bool isStreamPath(const std::string& path);

// Tests only: called once during each atomic save, when the temporary file holds part of the text.
void setSaveInterruptionHookForTests(void (*hook)());

} // namespace lp::core
