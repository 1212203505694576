#pragma once
// Deletes a save's temporary file when SIGINT, SIGTERM or SIGHUP ends the process in the middle of the save
// (SIGKILL aside), then lets the signal take its default action. Async-signal-safe: the names live in
// static buffers, the handler only unlinks and re-raises.
#include <string>

namespace lp::core::detail {

class TempFileCleanup {
public:
    TempFileCleanup() = default;
    TempFileCleanup(const TempFileCleanup&) = delete;
    TempFileCleanup& operator=(const TempFileCleanup&) = delete;
    ~TempFileCleanup() { release(); }

    // From now on a signal deletes `path` (it may not exist yet). False when every slot is taken by other
    // saves running at the same time: the save then goes on unguarded.
    bool track(const std::string& path);
    // The file was renamed or deleted: a signal no longer touches it.
    void release();

private:
    int m_slot = -1;
};

} // namespace lp::core::detail
