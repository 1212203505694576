#include "ui/document/ValidationSets.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

#include <algorithm>

namespace lp::ui {

QStringList pathsUpwards(const QString& relative) {
    QStringList out;
    for (const QString& start : {QCoreApplication::applicationDirPath(), QDir::currentPath()}) {
        if (start.isEmpty())
            continue;
        QDir dir(start);
        for (int up = 0; up < 5; ++up) {
            const QString path = QDir::cleanPath(dir.filePath(relative));
            if (!out.contains(path))
                out << path;
            if (!dir.cdUp())
                break;
        }
    }
    return out;
}

QStringList validationSetFolders() {
    QStringList out = pathsUpwards(QStringLiteral("shared/reference"));
    out << pathsUpwards(QStringLiteral("tests/data/validation"));
    for (const QString& base : QStandardPaths::standardLocations(QStandardPaths::GenericDataLocation)) {
        out << QDir::cleanPath(QDir(base).filePath(QStringLiteral("layout-planner")));
        out << QDir::cleanPath(QDir(base).filePath(QStringLiteral("layout-planner/validation")));
    }
    out.removeDuplicates();
    return out;
}

QString validationSetTitle(const QString& fileName) {
    static const std::pair<const char*, const char*> kKnown[] = {
        {"reference-runs.json",
         QT_TRANSLATE_NOOP("ValidationSets", "Reference set: Megatron-LM, Megatron-DeepSpeed, torchtitan")},
        {"published-runs.json",
         QT_TRANSLATE_NOOP("ValidationSets", "Reference set: Megatron-LM, Megatron-DeepSpeed, torchtitan")},
        {"more-published-runs.json",
         QT_TRANSLATE_NOOP(
             "ValidationSets",
             "More published runs: torchtitan, NeMo, Megatron-Bridge, AutoModel, fms-fsdp, MoE")},
        {"llm-foundry-runs.json",
         QT_TRANSLATE_NOOP("ValidationSets", "MosaicML llm-foundry: MPT with FSDP, A100 and H100")},
        {"vtrain-runs.json",
         QT_TRANSLATE_NOOP("ValidationSets", "vTrain: 1,549 Megatron-DeepSpeed runs on A100")},
        {"megatron-bridge-moe-runs.json",
         QT_TRANSLATE_NOOP("ValidationSets",
                           "Megatron-Bridge MoE: DeepSeek-V3, Qwen3, GPT-OSS (a weak spot)")},
        {"dgxc-benchmarking-runs.json",
         QT_TRANSLATE_NOOP("ValidationSets",
                           "NVIDIA dgxc-benchmarking: NeMo on H100 and GB200, 8-2,304 GPUs")},
        {"landmark-runs.json",
         QT_TRANSLATE_NOOP("ValidationSets",
                           "Landmark runs: BLOOM, MT-NLG, Llama 3, MLPerf, MaxText, H200 runs")},
        {"pytorch-fsdp-runs.json",
         QT_TRANSLATE_NOOP("ValidationSets",
                           "PyTorch FSDP trainers: OLMo-core, fms-fsdp, torchtitan, TinyLlama")},
    };
    for (const auto& [file, title] : kKnown)
        if (fileName == QLatin1String(file))
            return QCoreApplication::translate("ValidationSets", title);
    return QFileInfo(fileName).completeBaseName();
}

std::vector<ValidationSet> bundledValidationSets() {
    std::vector<ValidationSet> out;
    QStringList seen;
    for (const QString& folder : validationSetFolders()) {
        const QDir dir(folder);
        if (!dir.exists())
            continue;
        const bool reference = folder.endsWith(QLatin1String("shared/reference"));
        const QStringList names = reference
                                      ? QStringList{QStringLiteral("published-runs.json")}
                                      : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
        for (const QString& name : names) {
            if (seen.contains(name) || !QFileInfo(dir.filePath(name)).isFile())
                continue;
            seen << name;
            out.push_back({validationSetTitle(name), QFileInfo(dir.filePath(name)).absoluteFilePath()});
        }
    }
    // The repository's converted reference set (@2) stands for the shared @1 file it was converted from.
    const auto isReference = [](const ValidationSet& set, const char* name) {
        return set.path.endsWith(QLatin1Char('/') + QLatin1String(name));
    };
    if (std::ranges::any_of(out,
                            [&](const ValidationSet& s) { return isReference(s, "reference-runs.json"); }))
        std::erase_if(out, [&](const ValidationSet& s) { return isReference(s, "published-runs.json"); });
    // The reference set first, the others in name order.
    std::stable_sort(out.begin(), out.end(), [&](const ValidationSet& a, const ValidationSet& b) {
        const bool ar = isReference(a, "published-runs.json") || isReference(a, "reference-runs.json");
        const bool br = isReference(b, "published-runs.json") || isReference(b, "reference-runs.json");
        return ar && !br;
    });
    return out;
}

} // namespace lp::ui
