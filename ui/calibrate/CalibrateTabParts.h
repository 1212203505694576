#pragma once
// Helpers shared by the Calibrate tab's files (CalibrateTab.cpp, CalibrateTabCharts.cpp): colours,
// axes, chart plumbing and table cells. Internal to ui/.
#include "core/estimate/Evaluate.h"
#include "core/io/Presets.h"
#include "core/io/ScenarioJson.h"
#include "core/model/Enums.h"
#include "cuda/Workload.h"
#include "ui/charts/ChartStyle.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/widgets/Format.h"
#include "ui/widgets/InlineBanner.h"
#include "ui/widgets/Palette.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QFrame>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextDocumentFragment>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <map>
#include <tuple>

namespace lp::ui::calibrate {

inline constexpr double kMiB = 1024.0 * 1024.0;
inline const QColor kBlue(0x4E, 0x79, 0xA7);
inline const QColor kOrange(0xF2, 0x8E, 0x2B);
inline const QColor kPurple(0xB0, 0x7A, 0xA1);
inline const QColor kGreen(0x59, 0xA1, 0x4F);
inline const QColor kTeal(0x49, 0x98, 0x94);
inline const QColor kBrown(0x9C, 0x75, 0x5F);

QTableWidgetItem* cell(const QString& text, bool right = false, const QString& tip = {});

QColor mix(const QPalette& p, double t);
QColor collectiveColor(calib::Collective c);
QString collectiveName(calib::Collective c);
bool isSweepShape(const calib::GemmShape& g);
QString sizeText(double bytes);
QString tflops(double flopsPerSecond);
QString peakText(double flopsPerSecond);
QLogValueAxis* logAxis(const QString& title, double lo, double hi);
QValueAxis* valueAxis(const QString& title, double top);
void resetChart(QChart* chart, const QPalette& pal);
void attach(QChart* chart, QAbstractSeries* s, QAbstractAxis* x, QAbstractAxis* y, bool inLegend = true);
QLineSeries* flat(double x0, double x1, double y, const QString& name, const QColor& color,
                  Qt::PenStyle style, double width = 1.5);
QLineSeries* curveSeries(const core::Curve& curve, double x0, double x1, double scale, double xShow,
                         const QString& name, const QColor& color, Qt::PenStyle style);
QString legendHtml(const QChart* chart);
QString deviceMemory(double bytes);

} // namespace lp::ui::calibrate
