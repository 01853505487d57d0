// The Graph dock: which pass's IR the graph is of, Fit (the whole graph;
// double-click does the same) and "Tiles only" (the dataflow of tiles
// without the allocations, constants and index arithmetic), over the view.
#pragma once

#include <QWidget>

class GraphView;
class QCheckBox;
class QLabel;

class GraphPanel : public QWidget
{
    Q_OBJECT
public:
    explicit GraphPanel(QWidget *parent = nullptr);
    GraphView *view() const { return m_view; }
    QLabel *captionLabel() const { return m_caption; }
    QCheckBox *tilesOnlyBox() const { return m_tilesOnly; }

private:
    GraphView *m_view;
    QLabel *m_caption;
    QCheckBox *m_tilesOnly;
};
