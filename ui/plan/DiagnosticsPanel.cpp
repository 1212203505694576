#include "ui/plan/DiagnosticsPanel.h"

#include "ui/document/ScenarioDocument.h"
#include "ui/plan/DiagnosticsModel.h"

#include <QApplication>
#include <QEvent>
#include <QLabel>
#include <QListView>
#include <QPainter>
#include <QVBoxLayout>

#include <algorithm>

namespace lp::ui {
namespace {
constexpr int kPad = 6;
constexpr int kIcon = 16;
constexpr int kGap = 3; // between the message and the suggestion
constexpr auto kWrap = Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop;

QString suggestionText(const QModelIndex& index) {
    return QStringLiteral("→ ") + index.data(DiagnosticsModel::SuggestionRole).toString();
}
} // namespace

DiagnosticDelegate::DiagnosticDelegate(QListView* view) : QStyledItemDelegate(view), m_view(view) {}

void DiagnosticDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                               const QModelIndex& index) const {
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QWidget* widget = opt.widget;
    QStyle* style = widget ? widget->style() : QApplication::style();
    // Background and selection only; icon and texts are laid out here.
    opt.text.clear();
    opt.icon = QIcon();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);

    const QRect r = option.rect.adjusted(kPad, kPad, -kPad, -kPad);
    const QIcon icon = qvariant_cast<QIcon>(index.data(Qt::DecorationRole));
    icon.paint(painter, QRect(r.left(), r.top() + 1, kIcon, kIcon));
    const bool selected = option.state & QStyle::State_Selected;
    const QColor text = option.palette.color(selected ? QPalette::HighlightedText : QPalette::Text);
    QColor muted = text;
    muted.setAlphaF(0.68f);
    const QRect textRect(r.left() + kIcon + kPad, r.top(), r.width() - kIcon - kPad, r.height());
    painter->save();
    painter->setFont(option.font);
    painter->setPen(text);
    QRect used;
    painter->drawText(textRect, kWrap, index.data(Qt::DisplayRole).toString(), &used);
    painter->setPen(muted);
    painter->drawText(textRect.adjusted(0, used.height() + kGap, 0, 0), kWrap, suggestionText(index));
    painter->restore();
    QColor line = text;
    line.setAlpha(30);
    painter->setPen(line);
    painter->drawLine(option.rect.bottomLeft(), option.rect.bottomRight());
}

QSize DiagnosticDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const {
    const int width = std::max(120, m_view->viewport()->width());
    // The heights hold for one width and one font (presentation mode's fonts are 1.6 times larger).
    if (width != m_cachedWidth || option.font != m_cachedFont) {
        m_heights.clear();
        m_cachedWidth = width;
        m_cachedFont = option.font;
    }
    const QString message = index.data(Qt::DisplayRole).toString();
    const QString suggestion = suggestionText(index);
    const QString key = message + QChar(0x1F) + suggestion;
    auto it = m_heights.constFind(key);
    if (it == m_heights.constEnd()) {
        if (m_heights.size() > 256)
            m_heights.clear();
        const QFontMetrics fm(option.font);
        const QRect box(0, 0, width - 3 * kPad - kIcon, 100000);
        const int h = fm.boundingRect(box, kWrap, message).height() + kGap +
                      fm.boundingRect(box, kWrap, suggestion).height();
        it = m_heights.insert(key, h + 2 * kPad + 1);
    }
    return {width, *it};
}

DiagnosticsPanel::DiagnosticsPanel(ScenarioDocument* doc, QWidget* parent)
    : QWidget(parent), m_doc(doc), m_model(new DiagnosticsModel(this)), m_view(new QListView(this)),
      m_summary(new QLabel(this)) {
    m_view->setObjectName(QStringLiteral("diagnostics"));
    m_view->setModel(m_model);
    m_view->setItemDelegate(new DiagnosticDelegate(m_view));
    m_view->setWordWrap(true);
    m_view->setResizeMode(QListView::Adjust);
    m_view->setUniformItemSizes(false);
    m_view->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setToolTip(tr("What the planner noticed about this layout, and the change each one suggests."));
    m_view->setAccessibleName(tr("Diagnostics"));
    m_view->viewport()->installEventFilter(this);
    m_summary->setObjectName(QStringLiteral("diagnosticsSummary"));
    m_summary->setWordWrap(true); // presentation fonts in a narrow panel: wrap rather than widen the dock
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addWidget(m_summary);
    layout->addWidget(m_view, 1);
    // A click or the keyboard's current row explains the figure the diagnostic is about.
    const auto explain = [this](const QModelIndex& index) {
        const QString key = index.data(DiagnosticsModel::ExplainKeyRole).toString();
        if (!key.isEmpty())
            emit explainRequested(key);
    };
    connect(m_view, &QListView::clicked, this, explain);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this, explain);
    connect(m_doc, &ScenarioDocument::planChanged, this, &DiagnosticsPanel::refresh);
    refresh();
}

bool DiagnosticsPanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_view->viewport() &&
        (event->type() == QEvent::Resize || event->type() == QEvent::FontChange))
        m_view->doItemsLayout(); // row heights depend on the width and the font
    return QWidget::eventFilter(watched, event);
}

void DiagnosticsPanel::setUnit(core::MemoryUnit unit) {
    m_model->setUnit(unit);
    refresh();
}

void DiagnosticsPanel::refresh() {
    m_model->setDiagnostics(m_doc->plan().diagnostics);
    int errors = 0, warnings = 0, infos = 0;
    for (int r = 0; r < m_model->rowCount(); ++r) {
        switch (static_cast<core::Severity>(m_model->index(r).data(DiagnosticsModel::SeverityRole).toInt())) {
        case core::Severity::Error:
            ++errors;
            break;
        case core::Severity::Warning:
            ++warnings;
            break;
        case core::Severity::Info:
            ++infos;
            break;
        }
    }
    if (m_model->rowCount() == 0)
        m_summary->setText(tr("No problems found."));
    else
        m_summary->setText(tr("%1 error(s), %2 warning(s), %3 note(s)").arg(errors).arg(warnings).arg(infos));
}

} // namespace lp::ui
