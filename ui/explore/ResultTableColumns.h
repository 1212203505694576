#pragma once
// The Explore table's columns: which show and how wide. By default the figures a search is judged by and
// the layout in words, which fit a laptop's window; the layout's axes one by one and the rest are a
// right-click on the headings away (or the "Columns" button's menu). A person's choice of a column
// overrides its default and is remembered (QSettings "explore/shownColumns", "explore/hiddenColumns").
// Columns are as wide as their contents; the last (the layout) takes what is left, on two lines per row where
// one is too narrow for it (breaking between its parts), and elides what even two cannot hold.
#include "core/search/Search.h"
#include "ui/explore/SearchResultModel.h"

#include <QObject>

#include <array>
#include <optional>

class QAction;
class QMenu;
class QTableView;

namespace lp::ui {

class ResultTableColumns : public QObject {
    Q_OBJECT
public:
    // What the listed layouts make worth showing by default.
    struct Context {
        bool severalBatches = false; // the global batch differs between rows
        core::RankBy rankBy = core::RankBy::StepTime;
    };

    // `table` shows a SearchResultModel (through a proxy that keeps its columns).
    explicit ResultTableColumns(QTableView* table, QObject* parent = nullptr);

    void setContext(const Context& context);
    static bool shownByDefault(int column, const Context& context);

    // A person's choice (remembered). The only column shown cannot be hidden.
    void setShown(int column, bool shown);
    void showAll();
    void restoreDefaults(); // forgets every choice
    bool isShown(int column) const;

    // Shows the chosen and default columns, every one but the last as wide as its heading and contents, the
    // last stretching; where the table is too narrow for them, default figures the others imply are left
    // out (the menu has them). Again whenever the table is resized.
    void fit();

    // 1, or 2 where the layout's words are wider than their column (the rows grow to two lines).
    int layoutLines() const { return m_lines; }

    QMenu* menu() const { return m_menu; } // checkable column names, Show all, Defaults
    QAction* action(int column) const { return m_actions[static_cast<std::size_t>(column)]; }

signals:
    void layoutLinesChanged(int lines);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void buildMenu();
    void refreshMenu();
    void resizeToContents();
    void fitLayoutLines();
    int widestLayoutText() const;
    int cellMargins() const;
    void load();
    void save() const;
    int shownCount() const;

    QTableView* m_table;
    Context m_context;
    std::array<std::optional<bool>, SearchResultModel::ColumnCount>
        m_choice; // per column: shown or hidden by a person, else default
    std::array<QAction*, SearchResultModel::ColumnCount> m_actions{};
    QMenu* m_menu = nullptr;
    bool m_fitting = false;
    int m_lines = 1;
};

} // namespace lp::ui
