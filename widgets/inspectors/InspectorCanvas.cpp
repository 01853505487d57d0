#include "InspectorCanvas.h"

#include "InspectorData.h"
#include "InspectorState.h"

#include <QFileInfo>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QSvgGenerator>
#include <QToolTip>
#include <QWheelEvent>

namespace inspector {
QColor pipeColor(Pipe pipe)
{
    switch (pipe) {
    case Pipe::S: return QColor(0x8a, 0x8f, 0x98);
    case Pipe::MTE2: return QColor(0x3b, 0x7d, 0xd8);
    case Pipe::V: return QColor(0x2e, 0xa0, 0x4f);
    case Pipe::MTE3: return QColor(0xe8, 0x8b, 0x1a);
    case Pipe::MTE1: return QColor(0x8e, 0x5c, 0xc7);
    case Pipe::M: return QColor(0xd0, 0x45, 0x45);
    case Pipe::FIX: return QColor(0x9a, 0x6b, 0x3c);
    }
    return Qt::gray;
}

QColor stallColor()
{
    return QColor(0xd9, 0x3b, 0x3b);
}

QColor categoryColor(int index)
{
    // Golden-ratio hue steps keep neighbours apart; two lightness bands.
    const double hue = std::fmod(0.08 + index * 0.618033988749895, 1.0);
    return QColor::fromHslF(hue, 0.55, index % 2 ? 0.62 : 0.52);
}
} // namespace inspector

InspectorCanvas::InspectorCanvas(QWidget *parent)
    : QWidget(parent)
    , m_theme(Theme::light())
{
    setMouseTracking(true);
    setMinimumSize(200, 120);
    setFocusPolicy(Qt::ClickFocus);
}

void InspectorCanvas::setState(InspectorState *state)
{
    if (m_state)
        disconnect(m_state, nullptr, this, nullptr);
    m_state = state;
    if (state) {
        connect(state, &InspectorState::changed, this, qOverload<>(&QWidget::update));
        connect(state, &InspectorState::staleNoteChanged, this, qOverload<>(&QWidget::update));
    }
    update();
}

void InspectorCanvas::setTheme(const Theme &theme)
{
    m_theme = theme;
    update();
}

void InspectorCanvas::updateAxisPixels(double width)
{
    m_x.setPixels(plotLeft(), width - 12);
}

void InspectorCanvas::zoomBy(double factor, double atPixel)
{
    updateAxisPixels(width());
    m_x.zoomAt(atPixel, factor);
    onWindowChanged();
    emit viewChanged();
    update();
}

void InspectorCanvas::panBy(double pixels)
{
    updateAxisPixels(width());
    m_x.panPixels(pixels);
    onWindowChanged();
    emit viewChanged();
    update();
}

void InspectorCanvas::resetZoom()
{
    m_x.reset();
    onWindowChanged();
    emit viewChanged();
    update();
}

QImage InspectorCanvas::renderImage(const QSize &size)
{
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(m_theme.background);
    QPainter p(&image);
    p.setRenderHint(QPainter::Antialiasing);
    paintCanvas(p, size);
    p.end();
    updateAxisPixels(width()); // back to the widget's own pixels
    return image;
}

bool InspectorCanvas::exportTo(const QString &path, QString *error)
{
    const QSize size = width() > 300 ? this->size() : QSize(1200, 500);
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("svg")) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setTitle(windowTitle().isEmpty() ? objectName() : windowTitle());
        QPainter p;
        if (!p.begin(&svg)) {
            if (error)
                *error = tr("cannot write %1").arg(path);
            return false;
        }
        p.fillRect(QRect(QPoint(0, 0), size), m_theme.background);
        paintCanvas(p, size);
        p.end();
        updateAxisPixels(width());
        return true;
    }
    const QImage image = renderImage(size);
    if (!image.save(path, suffix.isEmpty() ? "PNG" : nullptr)) {
        if (error)
            *error = tr("cannot write %1").arg(path);
        return false;
    }
    return true;
}

void InspectorCanvas::drawTimeAxis(QPainter &p, double y, double width, const QString &unit) const
{
    p.setPen(m_theme.marginText);
    p.drawLine(QPointF(m_x.pixelStart, y), QPointF(m_x.pixelEnd, y));
    const double step = inspector::niceStep(m_x.span(), std::max(2, int((width - plotLeft()) / 90)));
    const double start = std::ceil(m_x.first / step) * step;
    const QFontMetrics fm(p.font());
    for (double v = start; v <= m_x.last + step * 1e-9; v += step) {
        const double x = m_x.toPixel(v);
        p.drawLine(QPointF(x, y), QPointF(x, y + 4));
        const QString label = QString::number(v, 'g', 6) + unit;
        p.drawText(QPointF(x - fm.horizontalAdvance(label) / 2.0, y + 4 + fm.ascent()), label);
    }
}

double InspectorCanvas::legendSpace(double width) const
{
    const inspector::Legend key = legend();
    return key.isEmpty() ? 0 : key.height(QFontMetricsF(font()), width - 16) + 6;
}

void InspectorCanvas::drawLegend(QPainter &p, const QSize &size, double top) const
{
    const inspector::Legend key = legend();
    if (key.isEmpty())
        return;
    p.save();
    p.setFont(font());
    key.draw(p, 8, top >= 0 ? top : size.height() - legendSpace(size.width()) + 2, size.width() - 16, m_theme);
    p.restore();
}

void InspectorCanvas::drawEmpty(QPainter &p, const QSize &size, const QString &message) const
{
    p.setPen(m_theme.marginText);
    p.drawText(QRect(QPoint(0, 0), size), Qt::AlignCenter | Qt::TextWordWrap, message);
}

void InspectorCanvas::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), m_theme.background);
    p.setRenderHint(QPainter::Antialiasing);
    paintCanvas(p, size());
    drawStaleNote(p);
}

QRect InspectorCanvas::staleNoteRect() const
{
    if (!m_state || m_state->staleNote().isEmpty())
        return {};
    const int h = fontMetrics().height() + 8;
    return QRect(0, height() - h, width(), h);
}

void InspectorCanvas::drawStaleNote(QPainter &p) const
{
    // On screen only (exports paint the canvas without it): a strip at the
    // foot, in the warning colour, so no result is read as current.
    const QRect strip = staleNoteRect();
    if (strip.isEmpty())
        return;
    const QString note = m_state->staleNote();
    p.save();
    p.setRenderHint(QPainter::Antialiasing, false);
    p.fillRect(strip, m_theme.warning);
    p.setPen(qGray(m_theme.warning.rgb()) > 140 ? QColor(Qt::black) : QColor(Qt::white));
    p.drawText(strip.adjusted(8, 0, -8, 0), Qt::AlignVCenter | Qt::AlignLeft,
               fontMetrics().elidedText(tr("Stale: %1").arg(note), Qt::ElideRight, strip.width() - 16));
    p.restore();
}

void InspectorCanvas::wheelEvent(QWheelEvent *event)
{
    const QPoint delta = event->angleDelta();
    if (event->modifiers() & Qt::ShiftModifier || std::abs(delta.x()) > std::abs(delta.y())) {
        panBy((delta.x() ? delta.x() : delta.y()) / 2.0);
    } else if (delta.y() != 0) {
        zoomBy(std::pow(1.0015, delta.y()), event->position().x());
    }
    event->accept();
}

void InspectorCanvas::mousePressEvent(QMouseEvent *event)
{
    m_pressPos = event->pos();
    m_lastDragPos = event->pos();
    m_dragging = false;
}

void InspectorCanvas::mouseMoveEvent(QMouseEvent *event)
{
    if (event->buttons() & Qt::LeftButton) {
        if (!m_dragging && (event->pos() - m_pressPos).manhattanLength() > 4)
            m_dragging = true;
        if (m_dragging) {
            setCursor(Qt::ClosedHandCursor);
            panBy(event->pos().x() - m_lastDragPos.x());
            m_lastDragPos = event->pos();
        }
    }
}

void InspectorCanvas::mouseReleaseEvent(QMouseEvent *event)
{
    unsetCursor();
    if (!m_dragging && event->button() == Qt::LeftButton)
        activateAt(event->position());
    m_dragging = false;
}

void InspectorCanvas::mouseDoubleClickEvent(QMouseEvent *)
{
    resetZoom();
}

void InspectorCanvas::keyPressEvent(QKeyEvent *event)
{
    if (event->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier)) {
        QWidget::keyPressEvent(event);
        return;
    }
    updateAxisPixels(width());
    const double centre = (m_x.pixelStart + m_x.pixelEnd) / 2;
    const double step = (m_x.pixelEnd - m_x.pixelStart) / 5;
    switch (event->key()) {
    case Qt::Key_W: zoomBy(1.5, centre); break;
    case Qt::Key_S: zoomBy(1 / 1.5, centre); break;
    case Qt::Key_A: panBy(step); break;
    case Qt::Key_D: panBy(-step); break;
    case Qt::Key_0: resetZoom(); break;
    default: QWidget::keyPressEvent(event); return;
    }
    event->accept();
}

bool InspectorCanvas::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        updateAxisPixels(width());
        const QString text = toolTipAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}
