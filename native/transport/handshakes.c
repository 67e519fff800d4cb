#include "handshakes.h"

static void arm(handshakes *q);

static void on_timer(uv_timer_t *timer)
{
    handshakes *q = timer->data;
    uint64_t now = uv_now(timer->loop);
    while (q->head && q->head->deadline <= now)
        q->drop(q->data, q->head, HS_DEADLINE);
    arm(q);
}

static void arm(handshakes *q)
{
    if (!q->head || q->closing)
        return;
    uint64_t now = uv_now(q->timer.loop), deadline = q->head->deadline;
    uv_timer_start(&q->timer, on_timer, deadline > now ? deadline - now : 0, 0);
}

void handshakes_init(handshakes *q, uv_loop_t *loop, unsigned timeout_ms, size_t max)
{
    uv_timer_init(loop, &q->timer);
    uv_unref((uv_handle_t *)&q->timer);
    q->timer.data = q;
    q->head = q->tail = NULL;
    q->count = q->peak = 0;
    q->max = max;
    q->timeout_ms = timeout_ms;
    q->closing = false;
}

void handshakes_add(handshakes *q, hs_link *link)
{
    link->deadline = uv_now(q->timer.loop) + q->timeout_ms;
    link->prev = q->tail;
    link->next = NULL;
    link->linked = true;
    if (q->tail)
        q->tail->next = link;
    else
        q->head = link;
    q->tail = link;
    q->count++;
    if (q->count > q->peak)
        q->peak = q->count;
    if (q->count > q->max)
        q->drop(q->data, q->head, HS_OVER_CAP);
    if (q->head == link)
        arm(q);
}

void handshakes_remove(handshakes *q, hs_link *link)
{
    if (!link->linked)
        return;
    link->linked = false;
    if (link->prev)
        link->prev->next = link->next;
    else
        q->head = link->next;
    if (link->next)
        link->next->prev = link->prev;
    else
        q->tail = link->prev;
    q->count--;
}

size_t handshakes_take_peak(handshakes *q)
{
    size_t peak = q->peak;
    q->peak = q->count;
    return peak;
}

static void on_timer_closed(uv_handle_t *handle)
{
    handshakes *q = handle->data;
    q->on_closed(q);
}

void handshakes_close(handshakes *q, void (*on_closed)(handshakes *q))
{
    q->closing = true;
    q->on_closed = on_closed;
    while (q->head)
        q->drop(q->data, q->head, HS_CLOSING);
    uv_close((uv_handle_t *)&q->timer, on_timer_closed);
}
