#pragma once
// The diagnostics list: severity icon, the message, and the change it suggests (word-wrapped).
#include "core/util/NumberFormat.h"

#include <QFont>
#include <QHash>
#include <QStyledItemDelegate>
#include <QWidget>

class QLabel;
class QListView;

namespace lp::ui {

class DiagnosticsModel;
class ScenarioDocument;

class DiagnosticDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    explicit DiagnosticDelegate(QListView* view);
    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

private:
    QListView* m_view;
    mutable QHash<QString, int> m_heights; // row text -> height, for the current width
    mutable int m_cachedWidth = -1;
    mutable QFont m_cachedFont;
};

class DiagnosticsPanel : public QWidget {
    Q_OBJECT
public:
    explicit DiagnosticsPanel(ScenarioDocument* doc, QWidget* parent = nullptr);
    DiagnosticsModel* model() const { return m_model; }
    QListView* view() const { return m_view; }
    void setUnit(core::MemoryUnit unit); // memory in the messages

signals:
    void explainRequested(const QString& key);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void refresh();
    ScenarioDocument* m_doc;
    DiagnosticsModel* m_model;
    QListView* m_view;
    QLabel* m_summary;
};

} // namespace lp::ui
