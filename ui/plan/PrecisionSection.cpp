#include "ui/plan/PrecisionSection.h"

#include "ui/widgets/FigureLabel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace lp::ui {
namespace {

enum Column { TensorColumn, FormatColumn, BytesColumn, ColumnCount };
constexpr int kMaxVisibleRows = 16; // every row of the longest table
constexpr int kMinVisibleRows = 4;  // when the window is short: scroll, the charts keep their room

// Scaling state is a few MB: GB/GiB with one decimal would show 0.0.
QString smallBytes(double bytes, MemoryUnit unit) {
    const double mega = unit == MemoryUnit::GiB ? 1024.0 * 1024.0 : 1e6;
    if (bytes >= 1000.0 * mega)
        return formatBytes(bytes, unit, 2);
    return formatNumber(bytes / mega, bytes < 10.0 * mega ? 2 : 1) + QChar(0x202F) +
           (unit == MemoryUnit::GiB ? QStringLiteral("MiB") : QStringLiteral("MB"));
}

QString bytesText(double bytes) {
    if (bytes <= 0)
        return QStringLiteral("–");
    return formatNumber(bytes, bytes == static_cast<int>(bytes) ? 0 : 1) + QStringLiteral(" B");
}

QString formatOf(const std::vector<core::TensorPrecision>& rows, const char* prefix) {
    for (const core::TensorPrecision& r : rows)
        if (r.tensor.starts_with(prefix))
            return QString::fromStdString(r.format);
    return {};
}

} // namespace

PrecisionSection::PrecisionSection(QWidget* parent)
    : CollapsibleSection(tr("Number formats"), parent), m_fp8Row(new QWidget(this)),
      m_copies(new FigureLabel(
          tr("FP8 weight copies"), QStringLiteral("fp8_weight_copies"), QStringLiteral("memory.weights"),
          tr("Cached fp8 casts (and transposes) of the linear weights one GPU computes with; "
             "counted in the weights bar."),
          m_fp8Row)),
      m_scaling(new FigureLabel(
          tr("FP8 scaling state"), QStringLiteral("fp8_scaling_state"), QStringLiteral("memory.weights"),
          tr("Per-tensor scales and amax histories of the fp8 linear modules on one GPU; counted "
             "in the weights bar."),
          m_fp8Row)),
      m_table(new QTableWidget(0, ColumnCount, this)) {
    setObjectName(QStringLiteral("precisionSection"));
    header()->setToolTip(
        tr("Show or hide which tensors are kept in which number format (bf16, fp16, fp8, fp32)."));

    // Beside the table, not above it: the section must not push the charts below the window.
    auto* fp8Layout = new QVBoxLayout(m_fp8Row);
    fp8Layout->setContentsMargins(0, 0, 0, 0);
    fp8Layout->setSpacing(6);
    fp8Layout->addWidget(m_copies);
    fp8Layout->addWidget(m_scaling);
    fp8Layout->addStretch(1);
    m_fp8Row->setFixedWidth(195);
    for (FigureLabel* f : {m_copies, m_scaling})
        connect(f, &FigureLabel::explainRequested, this, &PrecisionSection::explainRequested);

    m_table->setObjectName(QStringLiteral("precisionTable"));
    m_table->setHorizontalHeaderLabels({tr("Tensor"), tr("Format"), tr("Bytes")});
    m_table->horizontalHeaderItem(BytesColumn)
        ->setToolTip(tr("Bytes per element as stored (– where nothing is kept)."));
    m_table->verticalHeader()->setVisible(false);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideRight);
    m_table->setAlternatingRowColors(true);
    m_table->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_table->setAccessibleName(tr("Number formats per tensor"));
    QHeaderView* h = m_table->horizontalHeader();
    h->setSectionResizeMode(TensorColumn, QHeaderView::Stretch);
    h->setSectionResizeMode(FormatColumn, QHeaderView::Stretch); // both long texts share the width
    h->setSectionResizeMode(BytesColumn, QHeaderView::ResizeToContents);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);

    auto* body = new QWidget(this);
    auto* layout = new QHBoxLayout(body);
    layout->setContentsMargins(18, 0, 0, 0);
    layout->setSpacing(6);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_fp8Row, 0);
    m_fp8Row->hide();
    setContent(body);
}

int PrecisionSection::rowOf(const QString& tensorPrefix) const {
    const std::string prefix = tensorPrefix.toStdString();
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].tensor.starts_with(prefix))
            return static_cast<int>(i);
    return -1;
}

void PrecisionSection::setPlan(const core::Scenario& scenario, const core::Plan& plan, bool stale) {
    m_plan = plan;
    m_stale = stale;
    const core::Fp8Habits habits = core::fp8Habits(scenario, core::resolvedStyle(scenario.training));
    m_fp8Active = habits.active;
    m_copiesExpected = habits.weightCopyBytesPerParam > 0;

    std::vector<core::TensorPrecision> rows = core::precisionTable(scenario);
    const bool sameRows =
        rows.size() == m_rows.size() &&
        std::equal(rows.begin(), rows.end(), m_rows.begin(), [](const auto& a, const auto& b) {
            return a.tensor == b.tensor && a.format == b.format && a.bytes == b.bytes && a.note == b.note;
        });
    if (!sameRows) { // a slider drag changes nothing here: the table is rebuilt only when the rows change
        m_rows = std::move(rows);
        m_table->setRowCount(static_cast<int>(m_rows.size()));
        for (int r = 0; r < static_cast<int>(m_rows.size()); ++r) {
            const core::TensorPrecision& row = m_rows[static_cast<std::size_t>(r)];
            const QString note = QString::fromStdString(row.note);
            const QString format = QString::fromStdString(row.format);
            const QString texts[ColumnCount] = {QString::fromStdString(row.tensor), format,
                                                bytesText(row.bytes)};
            for (int c = 0; c < ColumnCount; ++c) {
                auto* item = new QTableWidgetItem(texts[c]);
                item->setToolTip(QStringLiteral("<p><b>%1</b>: %2</p><p>%3</p>")
                                     .arg(texts[TensorColumn].toHtmlEscaped(), format.toHtmlEscaped(),
                                          note.toHtmlEscaped()));
                if (c == BytesColumn)
                    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
                if (format.startsWith(QLatin1String("fp8"))) { // what fp8 changes stands out
                    QFont bold = item->font();
                    bold.setBold(true);
                    item->setFont(bold);
                }
                m_table->setItem(r, c, item);
            }
        }
        fitTableHeight();
    }

    QString summary = tr("GEMM inputs %1 · weights %2 · master weights and optimizer state fp32")
                          .arg(formatOf(m_rows, "Linear-layer GEMM inputs"), formatOf(m_rows, "Weights"));
    if (m_fp8Active && plan.intermediates.fp8WeightCopyBytes > 0)
        summary += tr(" · fp8 weight copies %1 per GPU")
                       .arg(formatBytes(plan.intermediates.fp8WeightCopyBytes, m_unit, 1));
    setSummary(summary);
    refreshFigures();
}

void PrecisionSection::setUnit(MemoryUnit unit) {
    m_unit = unit;
    refreshFigures();
}

void PrecisionSection::setActiveKey(const QString& key) {
    for (FigureLabel* f : {m_copies, m_scaling})
        f->setActive(m_fp8Active && f->explainKey() == key);
}

void PrecisionSection::refreshFigures() {
    m_fp8Row->setVisible(m_fp8Active);
    if (!m_fp8Active)
        return;
    const core::Intermediates& x = m_plan.intermediates;
    const QString where = m_stale ? tr("per GPU, last valid layout") : tr("worst-stage GPU, in its weights");
    if (m_stale && m_copiesExpected && x.fp8WeightCopyBytes <= 0) { // the last valid plan was not fp8
        m_copies->setValue(QStringLiteral("–"), tr("no valid layout"));
        m_scaling->setValue(QStringLiteral("–"), tr("no valid layout"));
        return;
    }
    if (x.fp8WeightCopyBytes > 0)
        m_copies->setValue(formatBytes(x.fp8WeightCopyBytes, m_unit, 2), where);
    else
        m_copies->setValue(tr("none kept"), tr("cast inside each GEMM (torchao)"));
    if (x.fp8ScalingStateBytes > 0)
        m_scaling->setValue(smallBytes(x.fp8ScalingStateBytes, m_unit), where);
    else
        m_scaling->setValue(tr("none kept"), tr("dynamic scaling, computed per step"));
}

void PrecisionSection::fitTableHeight() {
    // All rows up to kMaxVisibleRows when there is room; at least a few, scrolling, when there is not.
    const int chrome = m_table->horizontalHeader()->sizeHint().height() + 2 * m_table->frameWidth();
    const int row = m_table->verticalHeader()->defaultSectionSize();
    m_table->setMinimumHeight(chrome + std::min(m_table->rowCount(), kMinVisibleRows) * row);
    m_table->setMaximumHeight(chrome + std::min(m_table->rowCount(), kMaxVisibleRows) * row);
}

} // namespace lp::ui
