#include "ui/DiagnosticsPanel.h"

#include "ui/DiagnosticsModel.h"
#include "ui/ScenarioDocument.h"

#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QEvent>
#include <QLabel>
#include <QListView>
#include <QPainter>
#include <QTextDocument>
#include <QTextOption>
#include <QVBoxLayout>

#include <algorithm>

namespace lp::ui {
namespace {
constexpr int kPad = 6;
constexpr int kIcon = 16;

// The row's text as two paragraphs: the message, then the suggestion in the muted colour.
void layoutText(QTextDocument& doc, const QModelIndex& index, const QFont& font, const QColor& muted, int width) {
    doc.setDefaultFont(font);
    doc.setDocumentMargin(0);
    doc.setTextWidth(width);
    const QString message = index.data(Qt::DisplayRole).toString().toHtmlEscaped();
    const QString suggestion = index.data(DiagnosticsModel::SuggestionRole).toString().toHtmlEscaped();
    doc.setHtml(QStringLiteral("<div>%1</div><div style='color:%2; margin-top:3px'>&rarr; %3</div>")
                    .arg(message, muted.name(), suggestion));
}
} // namespace

DiagnosticDelegate::DiagnosticDelegate(QListView* view) : QStyledItemDelegate(view), m_view(view) {}

void DiagnosticDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const {
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QWidget* widget = opt.widget;
    QStyle* style = widget ? widget->style() : QApplication::style();
    // Background and selection only; the text is ours.
    opt.text.clear();
    opt.icon = QIcon();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);

    const QRect r = option.rect.adjusted(kPad, kPad, -kPad, -kPad);
    const QIcon icon = qvariant_cast<QIcon>(index.data(Qt::DecorationRole));
    icon.paint(painter, QRect(r.left(), r.top() + 1, kIcon, kIcon));
    const bool selected = option.state & QStyle::State_Selected;
    QColor muted = option.palette.color(selected ? QPalette::HighlightedText : QPalette::Text);
    muted.setAlphaF(0.68f);
    QTextDocument doc;
    layoutText(doc, index, option.font, muted, r.width() - kIcon - kPad);
    painter->save();
    painter->translate(r.left() + kIcon + kPad, r.top());
    painter->setPen(option.palette.color(selected ? QPalette::HighlightedText : QPalette::Text));
    QAbstractTextDocumentLayout::PaintContext ctx;
    ctx.palette.setColor(QPalette::Text, option.palette.color(selected ? QPalette::HighlightedText : QPalette::Text));
    doc.documentLayout()->draw(painter, ctx);
    painter->restore();
    // A thin separator between rows.
    QColor line = option.palette.color(QPalette::Text);
    line.setAlpha(30);
    painter->setPen(line);
    painter->drawLine(option.rect.bottomLeft(), option.rect.bottomRight());
}

QSize DiagnosticDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const {
    const int width = std::max(120, m_view->viewport()->width());
    QTextDocument doc;
    layoutText(doc, index, option.font, Qt::gray, width - 3 * kPad - kIcon);
    return {width, static_cast<int>(doc.size().height()) + 2 * kPad + 1};
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
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addWidget(m_summary);
    layout->addWidget(m_view, 1);
    connect(m_view, &QListView::clicked, this, [this](const QModelIndex& index) {
        const QString key = index.data(DiagnosticsModel::ExplainKeyRole).toString();
        if (!key.isEmpty())
            emit explainRequested(key);
    });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this, [this](const QModelIndex& index) {
        const QString key = index.data(DiagnosticsModel::ExplainKeyRole).toString();
        if (!key.isEmpty())
            emit explainRequested(key);
    });
    connect(m_doc, &ScenarioDocument::planChanged, this, &DiagnosticsPanel::refresh);
    refresh();
}

bool DiagnosticsPanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_view->viewport() && event->type() == QEvent::Resize)
        m_view->doItemsLayout();  // row heights depend on the width
    return QWidget::eventFilter(watched, event);
}

void DiagnosticsPanel::refresh() {
    m_model->setDiagnostics(m_doc->plan().diagnostics);
    int errors = 0, warnings = 0, infos = 0;
    for (int r = 0; r < m_model->rowCount(); ++r) {
        switch (static_cast<core::Severity>(m_model->index(r).data(DiagnosticsModel::SeverityRole).toInt())) {
        case core::Severity::Error: ++errors; break;
        case core::Severity::Warning: ++warnings; break;
        case core::Severity::Info: ++infos; break;
        }
    }
    if (m_model->rowCount() == 0)
        m_summary->setText(tr("No problems found."));
    else
        m_summary->setText(tr("%1 error(s), %2 warning(s), %3 note(s)").arg(errors).arg(warnings).arg(infos));
}

} // namespace lp::ui
