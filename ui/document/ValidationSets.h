#pragma once
// The files of published measured runs that come with Layout Planner, found where a source checkout or an
// installed package keeps them: the reference set (tests/data/validation/reference-runs.json, the @2 copy the
// repository keeps, else shared/reference/published-runs.json beside the checkout or
// <data dir>/layout-planner/published-runs.json) and the further sets (tests/data/validation/*.json in a
// checkout, <data dir>/layout-planner/validation/*.json installed). The Validate tab offers them by name.
#include <QString>
#include <QStringList>

#include <vector>

namespace lp::ui {

struct ValidationSet {
    QString title; // "Reference set: Megatron-LM, Megatron-DeepSpeed, torchtitan"
    QString path;  // absolute
};

// `relative` beside or above the executable's folder, then beside or above the working folder (a build tree
// sits inside the checkout, which sits beside shared/): five levels each, cleaned, no duplicates.
QStringList pathsUpwards(const QString& relative);
// The folders searched, in order, each with the file name (or "*.json") looked for there.
QStringList validationSetFolders();
// The sets found, the reference set first, one entry per file name (the first folder that has it wins).
std::vector<ValidationSet> bundledValidationSets();
// A reader's name for a set file: the known sets by their file name, any other file by its base name.
QString validationSetTitle(const QString& fileName);

} // namespace lp::ui
