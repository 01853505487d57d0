#include "GraphPanel.h"

#include "GraphView.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>

GraphPanel::GraphPanel(QWidget *parent)
    : QWidget(parent)
    , m_view(new GraphView(this))
    , m_caption(new QLabel(tr("Select a pass with IR"), this))
    , m_tilesOnly(new QCheckBox(tr("Tiles only"), this))
{
    m_caption->setObjectName(QStringLiteral("graphCaption"));
    m_caption->setTextFormat(Qt::PlainText);
    m_caption->setMinimumWidth(60); // elided by the layout, not widening the dock
    m_caption->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_tilesOnly->setToolTip(tr("The dataflow of tiles alone: copies, compute and matmuls, without allocations, "
                               "constants, index arithmetic and loops"));
    auto *fit = new QToolButton(this);
    fit->setText(tr("Fit"));
    fit->setToolTip(tr("Show the whole graph (or double-click it); the wheel zooms, drag pans"));
    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 2);
    bar->addWidget(m_caption, 1);
    bar->addWidget(m_tilesOnly);
    bar->addWidget(fit);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    connect(fit, &QToolButton::clicked, m_view, &GraphView::fitAll);
    connect(m_tilesOnly, &QCheckBox::toggled, m_view, &GraphView::setTilesOnly);
    connect(m_view, &GraphView::captionChanged, this, [this](const QString &caption) {
        m_caption->setText(caption);
        m_caption->setToolTip(caption);
    });
}
