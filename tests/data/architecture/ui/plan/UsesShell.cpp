#include "ui/shell/MainWindow.h"
