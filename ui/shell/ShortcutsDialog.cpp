#include "ui/shell/ShortcutsDialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QTableWidget>
#include <QVBoxLayout>

namespace lp::ui {
namespace {
struct ShortcutRow {
    QString menu;
    QString command;
    QString keys;
};

// "&Save As…" as a reader sees it in the menu: "Save As".
QString plainText(QString text) {
    text.remove(QRegularExpression(QStringLiteral("&(?!&)")));
    text.replace(QStringLiteral("&&"), QStringLiteral("&"));
    if (text.endsWith(QChar(0x2026)))
        text.chop(1);
    else if (text.endsWith(QStringLiteral("...")))
        text.chop(3);
    return text;
}

void collect(const QMenu* menu, const QString& path, QList<ShortcutRow>& rows) {
    for (const QAction* action : menu->actions()) {
        if (action->isSeparator())
            continue;
        if (const QMenu* sub = action->menu()) {
            collect(sub, path + QStringLiteral(" > ") + plainText(sub->title()), rows);
            continue;
        }
        QStringList keys;
        for (const QKeySequence& key : action->shortcuts())
            keys << key.toString(QKeySequence::NativeText);
        if (!keys.isEmpty())
            rows.push_back({path, plainText(action->text()), keys.join(QStringLiteral(", "))});
    }
}
} // namespace

ShortcutsDialog::ShortcutsDialog(QMenuBar* menus, QWidget* parent) : QDialog(parent), m_menus(menus) {
    setObjectName(QStringLiteral("shortcutsDialog"));
    setWindowTitle(tr("Keyboard Shortcuts"));
    m_table = new QTableWidget(0, 3, this);
    m_table->setObjectName(QStringLiteral("shortcutsTable"));
    m_table->setHorizontalHeaderLabels({tr("Menu"), tr("Command"), tr("Keys")});
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_table, 1);
    layout->addWidget(buttons);
    refresh();
    resize(560, 520);
}

void ShortcutsDialog::refresh() {
    QList<ShortcutRow> rows;
    for (const QAction* top : m_menus->actions())
        if (const QMenu* menu = top->menu())
            collect(menu, plainText(menu->title()), rows);
    m_table->setRowCount(static_cast<int>(rows.size()));
    for (int r = 0; r < rows.size(); ++r) {
        m_table->setItem(r, 0, new QTableWidgetItem(rows[r].menu));
        m_table->setItem(r, 1, new QTableWidgetItem(rows[r].command));
        m_table->setItem(r, 2, new QTableWidgetItem(rows[r].keys));
    }
    m_table->resizeColumnToContents(0);
    m_table->resizeColumnToContents(2);
}

} // namespace lp::ui
