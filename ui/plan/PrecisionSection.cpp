#include "ui/plan/PrecisionSection.h"

#include "core/estimate/KeyFigures.h"
#include "ui/widgets/ExplainTrigger.h"
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

QString bytesText(double bytes) {
    if (bytes <= 0)
        return QStringLiteral("–");
    return formatNumber(bytes, bytes == static_cast<int>(bytes) ? 0 : 1) + QStringLiteral(" B");
}

// The format of the first row whose tensor starts with `prefix`, up to its first comma ("bf16, two per
// parameter": bf16); "" when no row does.
QString formatOf(const std::vector<core::TensorPrecision>& rows, const char* prefix) {
    for (const core::TensorPrecision& r : rows)
        if (r.tensor.starts_with(prefix))
            return qs(r.format.substr(0, r.format.find(',')));
    return {};
}

// The optimizer's moments: Adam's two, or SGD's momentum.
QString optimizerStateFormat(const std::vector<core::TensorPrecision>& rows) {
    const QString adam = formatOf(rows, "Adam moments");
    return adam.isEmpty() ? formatOf(rows, "Momentum") : adam;
}

} // namespace

PrecisionSection::PrecisionSection(QWidget* parent)
    : CollapsibleSection(tr("Number formats"), parent), m_fp8Row(new QWidget(this)),
      m_copies(new FigureLabel(tr("FP8 weight copies"), QStringLiteral("fp8_weight_copies"),
                               QStringLiteral("memory.weights"), QString(), m_fp8Row)),
      m_scaling(new FigureLabel(tr("FP8 scaling state"), QStringLiteral("fp8_scaling_state"),
                                QStringLiteral("memory.weights"), QString(), m_fp8Row)),
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
    for (FigureLabel* f : {m_copies, m_scaling}) {
        relayExplanations(f, this);
    }

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
    m_scenario = scenario;
    m_plan = plan;
    m_stale = stale;
    std::vector<core::TensorPrecision> rows = core::precisionTable(scenario);
    const bool sameRows =
        rows.size() == m_rows.size() &&
        std::equal(rows.begin(), rows.end(), m_rows.begin(), [](const auto& a, const auto& b) {
            return a.tensor == b.tensor && a.format == b.format && a.bytes == b.bytes && a.note == b.note;
        });
    if (!sameRows) { // a slider drag changes nothing here: the table is rebuilt only when the rows change
        m_rows = std::move(rows);
        fillTable();
    }
    refreshFigures();
}

void PrecisionSection::fillTable() {
    m_table->setRowCount(static_cast<int>(m_rows.size()));
    for (int r = 0; r < static_cast<int>(m_rows.size()); ++r) {
        const core::TensorPrecision& row = m_rows[static_cast<std::size_t>(r)];
        const QString format = qs(row.format);
        const QString texts[ColumnCount] = {qs(row.tensor), format, bytesText(row.bytes)};
        const QString tip = QStringLiteral("<p><b>%1</b>: %2</p><p>%3</p>")
                                .arg(texts[TensorColumn].toHtmlEscaped(), format.toHtmlEscaped(),
                                     qs(row.note).toHtmlEscaped());
        for (int c = 0; c < ColumnCount; ++c) {
            auto* item = new QTableWidgetItem(texts[c]);
            item->setToolTip(tip);
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

void PrecisionSection::setUnit(MemoryUnit unit) {
    m_unit = unit;
    refreshFigures();
}

void PrecisionSection::setActiveKey(const QString& key) {
    for (FigureLabel* f : {m_copies, m_scaling})
        f->setActive(m_fp8Active && f->explainKey() == key);
}

void PrecisionSection::refreshFigures() {
    const std::vector<core::KeyFigure> figures = core::fp8Figures(m_scenario, m_plan, m_unit, m_stale);
    m_fp8Active = figures.size() == 2;
    m_fp8Row->setVisible(m_fp8Active);
    if (m_fp8Active) {
        m_copies->setFigure(figures[0]);
        m_scaling->setFigure(figures[1]);
    }
    QString summary = tr("GEMM inputs %1 · weights %2 · master weights %3 · optimizer state %4")
                          .arg(formatOf(m_rows, "Linear-layer GEMM inputs"), formatOf(m_rows, "Weights"),
                               formatOf(m_rows, "Master weights"), optimizerStateFormat(m_rows));
    if (m_fp8Active && figures[0].value > 0)
        summary += tr(" · fp8 weight copies %1 per GPU").arg(qs(figures[0].valueText));
    setSummary(summary);
}

void PrecisionSection::fitTableHeight() {
    // All rows up to kMaxVisibleRows when there is room; at least a few, scrolling, when there is not.
    const int chrome = m_table->horizontalHeader()->sizeHint().height() + 2 * m_table->frameWidth();
    const int row = m_table->verticalHeader()->defaultSectionSize();
    m_table->setMinimumHeight(chrome + std::min(m_table->rowCount(), kMinVisibleRows) * row);
    m_table->setMaximumHeight(chrome + std::min(m_table->rowCount(), kMaxVisibleRows) * row);
}

} // namespace lp::ui
