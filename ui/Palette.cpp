#include "ui/Palette.h"

namespace lp::ui {
namespace palette {

// Colour-blind-friendly hues (after Tableau 10 and Okabe-Ito), with red kept out of both families.
QColor memory(core::MemoryComponent c) {
    switch (c) {
    case core::MemoryComponent::Weights: return QColor(0x4E, 0x79, 0xA7);     // blue
    case core::MemoryComponent::Gradients: return QColor(0x76, 0xB7, 0xB2);   // teal
    case core::MemoryComponent::Optimizer: return QColor(0xB0, 0x7A, 0xA1);   // purple
    case core::MemoryComponent::Activations: return QColor(0xF2, 0x8E, 0x2B); // orange
    case core::MemoryComponent::Overhead: return QColor(0x9D, 0x94, 0x8F);    // warm grey
    }
    return Qt::gray;
}

QColor time(TimeComponent c) {
    switch (c) {
    case TimeComponent::Compute: return QColor(0x4E, 0x79, 0xA7);    // blue: useful work
    case TimeComponent::Recompute: return QColor(0xA0, 0xCB, 0xE8);  // light blue: repeated work
    case TimeComponent::TpComm: return QColor(0x59, 0xA1, 0x4F);     // green
    case TimeComponent::PpComm: return QColor(0x8C, 0xD1, 0x7D);     // light green
    case TimeComponent::CpComm: return QColor(0x49, 0x98, 0x94);     // dark teal
    case TimeComponent::EpComm: return QColor(0x86, 0xBC, 0xB6);     // light teal
    case TimeComponent::Bubble: return QColor(0xED, 0xC9, 0x48);     // yellow: idle
    case TimeComponent::DpExposed: return QColor(0xB0, 0x7A, 0xA1);  // purple
    case TimeComponent::Optimizer: return QColor(0xD4, 0xA6, 0xC8);  // light purple
    case TimeComponent::Loader: return QColor(0x9C, 0x75, 0x5F);     // brown
    case TimeComponent::Straggler: return QColor(0xF2, 0x8E, 0x2B);  // orange
    case TimeComponent::Overhead: return QColor(0xBA, 0xB0, 0xAC);   // grey
    }
    return Qt::gray;
}

QColor error() { return QColor(0xD6, 0x27, 0x28); }
QColor warning() { return QColor(0xE0, 0x8E, 0x0B); }
QColor info() { return QColor(0x3B, 0x7D, 0xD8); }
QColor capacityLine() { return QColor(0x44, 0x44, 0x44); }
QColor bandAlarm() { return QColor(0xD6, 0x27, 0x28); }
QColor bandGood() { return QColor(0x3C, 0xA5, 0x5C); }
QColor bandNeutral() { return QColor(0x9A, 0x9A, 0x9A); }

} // namespace palette

QString memoryName(core::MemoryComponent c) {
    switch (c) {
    case core::MemoryComponent::Weights: return QStringLiteral("Weights");
    case core::MemoryComponent::Gradients: return QStringLiteral("Gradients");
    case core::MemoryComponent::Optimizer: return QStringLiteral("Optimizer state");
    case core::MemoryComponent::Activations: return QStringLiteral("Activations");
    case core::MemoryComponent::Overhead: return QStringLiteral("Overheads");
    }
    return {};
}

QString memoryExplainKey(core::MemoryComponent c) {
    switch (c) {
    case core::MemoryComponent::Weights: return QStringLiteral("memory.weights");
    case core::MemoryComponent::Gradients: return QStringLiteral("memory.gradients");
    case core::MemoryComponent::Optimizer: return QStringLiteral("memory.optimizer");
    case core::MemoryComponent::Activations: return QStringLiteral("memory.activations");
    case core::MemoryComponent::Overhead: return QStringLiteral("memory.overhead");
    }
    return {};
}

double memoryBytes(const core::StageMemory& m, core::MemoryComponent c) {
    switch (c) {
    case core::MemoryComponent::Weights: return m.weightsBytes;
    case core::MemoryComponent::Gradients: return m.gradientsBytes;
    case core::MemoryComponent::Optimizer: return m.optimizerBytes;
    case core::MemoryComponent::Activations: return m.activationsBytes;
    case core::MemoryComponent::Overhead: return m.overheadBytes;
    }
    return 0;
}

QString timeName(TimeComponent c) {
    switch (c) {
    case TimeComponent::Compute: return QStringLiteral("Compute");
    case TimeComponent::Recompute: return QStringLiteral("Recompute");
    case TimeComponent::TpComm: return QStringLiteral("TP communication");
    case TimeComponent::PpComm: return QStringLiteral("PP communication");
    case TimeComponent::CpComm: return QStringLiteral("CP communication");
    case TimeComponent::EpComm: return QStringLiteral("EP communication");
    case TimeComponent::Bubble: return QStringLiteral("Pipeline bubble");
    case TimeComponent::DpExposed: return QStringLiteral("Exposed DP/sharding comm.");
    case TimeComponent::Optimizer: return QStringLiteral("Optimizer step");
    case TimeComponent::Loader: return QStringLiteral("Data loader");
    case TimeComponent::Straggler: return QStringLiteral("Stragglers");
    case TimeComponent::Overhead: return QStringLiteral("Host overhead");
    }
    return {};
}

QString timeExplainKey(TimeComponent c) {
    switch (c) {
    case TimeComponent::Compute: return QStringLiteral("time.compute");
    case TimeComponent::Recompute: return QStringLiteral("time.recompute");
    case TimeComponent::TpComm: return QStringLiteral("time.tp_comm");
    case TimeComponent::PpComm: return QStringLiteral("time.pp_comm");
    case TimeComponent::CpComm: return QStringLiteral("time.cp_comm");
    case TimeComponent::EpComm: return QStringLiteral("time.ep_comm");
    case TimeComponent::Bubble: return QStringLiteral("time.bubble");
    case TimeComponent::DpExposed: return QStringLiteral("time.dp_comm");
    case TimeComponent::Optimizer: return QStringLiteral("time.optimizer");
    case TimeComponent::Loader: return QStringLiteral("time.loader");
    case TimeComponent::Straggler: return QStringLiteral("time.straggler");
    case TimeComponent::Overhead: return QStringLiteral("time.overhead");
    }
    return {};
}

double timeSeconds(const core::TimeBreakdown& t, TimeComponent c) {
    switch (c) {
    case TimeComponent::Compute: return t.computeSeconds;
    case TimeComponent::Recompute: return t.recomputeSeconds;
    case TimeComponent::TpComm: return t.tpCommSeconds;
    case TimeComponent::PpComm: return t.ppCommSeconds;
    case TimeComponent::CpComm: return t.cpCommSeconds;
    case TimeComponent::EpComm: return t.epCommSeconds;
    case TimeComponent::Bubble: return t.bubbleSeconds;
    case TimeComponent::DpExposed: return t.dpCommExposedSeconds;
    case TimeComponent::Optimizer: return t.optimizerSeconds;
    case TimeComponent::Loader: return t.loaderSeconds;
    case TimeComponent::Straggler: return t.stragglerSeconds;
    case TimeComponent::Overhead: return t.overheadSeconds;
    }
    return 0;
}

} // namespace lp::ui
