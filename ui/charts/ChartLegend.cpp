#include "ui/charts/ChartLegend.h"

#include "ui/widgets/ExplainTrigger.h"
#include "ui/widgets/FlowLayout.h"

#include <QKeyEvent>
#include <QPainter>

#include <algorithm>

namespace lp::ui {
namespace {

class LegendEntry : public QWidget {
public:
    LegendEntry(ChartLegend* legend, QWidget* parent) : QWidget(parent), m_legend(legend) {
        setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
        setMouseTracking(true);
    }

    void set(const QColor& color, const QString& name, const QString& key, ChartLegend::Mark mark) {
        const bool resized = name != m_name || mark != m_mark;
        m_color = color;
        m_name = name;
        m_key = key;
        m_mark = mark;
        setAccessibleName(name);
        // Only an entry that explains something invites a click.
        const bool explains = !key.isEmpty();
        setFocusPolicy(explains ? Qt::TabFocus : Qt::NoFocus);
        setCursor(explains ? Qt::PointingHandCursor : Qt::ArrowCursor);
        setToolTip(explains
                       ? ChartLegend::tr("%1: click it for its formula (point at it for a preview)").arg(name)
                       : QString());
        if (resized)
            updateGeometry();
        update();
    }
    QString name() const { return m_name; }

    QSize sizeHint() const override {
        const QFontMetrics fm(font());
        return {swatchWidth() + gap() + fm.horizontalAdvance(m_name) + 2, fm.height() + 2};
    }
    QSize minimumSizeHint() const override { return sizeHint(); }

protected:
    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        const QFontMetrics fm(font());
        const int h = fm.height();
        const QRect swatch(0, 1 + (h - fm.ascent()) / 2, swatchWidth(), fm.ascent() - 1);
        if (m_mark == ChartLegend::Mark::Box) {
            p.fillRect(swatch, m_color);
            p.setPen(m_color.darker(130));
            p.drawRect(swatch.adjusted(0, 0, -1, -1));
        } else {
            const Qt::PenStyle style = m_mark == ChartLegend::Mark::Line         ? Qt::SolidLine
                                       : m_mark == ChartLegend::Mark::DottedLine ? Qt::DotLine
                                                                                 : Qt::DashLine;
            QPen pen(m_color, 2.0, style);
            p.setPen(pen);
            p.drawLine(swatch.left(), swatch.center().y(), swatch.right(), swatch.center().y());
        }
        p.setPen(palette().color(hasFocus() ? QPalette::Highlight : QPalette::WindowText));
        p.drawText(QRect(swatch.right() + 1 + gap(), 1, width(), h), Qt::AlignLeft | Qt::AlignVCenter,
                   m_name);
    }
    // A move, not the window appearing under the pointer, starts a preview.
    void mouseMoveEvent(QMouseEvent*) override {
        if (!m_previewing)
            preview(m_key);
    }
    void leaveEvent(QEvent*) override {
        if (m_previewing)
            preview(QString());
    }
    void mousePressEvent(QMouseEvent*) override { explain(); }
    void focusInEvent(QFocusEvent* event) override {
        if (isChosenFocus(event->reason()))
            explain();
        update();
    }
    void focusOutEvent(QFocusEvent*) override { update(); }
    void keyPressEvent(QKeyEvent* event) override {
        if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter || event->key() == Qt::Key_Space)
            explain();
        else
            QWidget::keyPressEvent(event);
    }

private:
    int swatchWidth() const {
        const int a = QFontMetrics(font()).ascent();
        return m_mark == ChartLegend::Mark::Box ? a : 2 * a;
    }
    int gap() const { return QFontMetrics(font()).averageCharWidth() / 2 + 2; }
    void explain() {
        if (!m_key.isEmpty())
            emit m_legend->explainRequested(m_key);
    }
    void preview(const QString& key) {
        m_previewing = !key.isEmpty();
        if (!m_key.isEmpty())
            emit m_legend->previewRequested(key);
    }

    ChartLegend* m_legend;
    QColor m_color;
    QString m_name;
    QString m_key;
    ChartLegend::Mark m_mark = ChartLegend::Mark::Box;
    bool m_previewing = false;
};

} // namespace

ChartLegend::ChartLegend(QWidget* parent) : QWidget(parent), m_flow(new FlowLayout(this, 14, 2)) {
    setObjectName(QStringLiteral("chartLegend"));
    m_flow->setCentered(true);
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
}

void ChartLegend::setEntry(int index, const QColor& color, const QString& name, const QString& explainKey,
                           Mark mark) {
    if (index < 0 || index > count())
        return;
    if (index == count()) {
        auto* e = new LegendEntry(this, this);
        m_entries.push_back(e);
        m_flow->addWidget(e);
    }
    static_cast<LegendEntry*>(m_entries[static_cast<std::size_t>(index)])->set(color, name, explainKey, mark);
}

void ChartLegend::truncate(int count) {
    while (this->count() > std::max(0, count)) {
        QWidget* last = m_entries.back();
        m_entries.pop_back();
        m_flow->removeWidget(last);
        delete last;
    }
}

QWidget* ChartLegend::entry(int index) const {
    return index >= 0 && index < count() ? m_entries[static_cast<std::size_t>(index)] : nullptr;
}

QString ChartLegend::entryName(int index) const {
    const QWidget* e = entry(index);
    return e ? static_cast<const LegendEntry*>(e)->name() : QString();
}

int ChartLegend::heightForWidth(int width) const {
    return m_flow->heightForWidth(width);
}

} // namespace lp::ui
