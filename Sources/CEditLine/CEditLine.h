// libedit (BSD editline), as Debian's libedit-dev ships it; scripts/bootstrap.sh installs it.
//
// el_set, el_get and history are variadic, which Swift cannot call: these static inline
// functions give each use a fixed signature.
#ifndef PORTOLAN_CEDITLINE_H
#define PORTOLAN_CEDITLINE_H

#include <stdio.h>
#include <wchar.h>
#include <histedit.h>

typedef char *(*portolan_el_prompt_t)(EditLine *);
typedef unsigned char (*portolan_el_key_t)(EditLine *, int);
typedef int (*portolan_el_getc_t)(EditLine *, wchar_t *);

static inline EditLine *portolan_el_open(const char *program) {
    return el_init(program, stdin, stdout, stderr);
}

/// The prompt; characters between two `literal` characters are escape codes of no width.
static inline int portolan_el_set_prompt(EditLine *el, portolan_el_prompt_t prompt, char literal) {
    return el_set(el, EL_PROMPT_ESC, prompt, literal);
}

static inline int portolan_el_set_editor(EditLine *el, const char *mode) {
    return el_set(el, EL_EDITOR, mode);
}

static inline int portolan_el_set_history(EditLine *el, History *history_) {
    return el_set(el, EL_HIST, history, history_);
}

static inline int portolan_el_add_function(EditLine *el, const char *name, const char *help, portolan_el_key_t function) {
    return el_set(el, EL_ADDFN, name, help, function);
}

static inline int portolan_el_bind(EditLine *el, const char *key, const char *name) {
    return el_set(el, EL_BIND, key, name, NULL);
}

/// `setty -d FLAG`: a terminal mode of the editing state only (`-isig`: Ctrl-C is a key there).
static inline int portolan_el_setty(EditLine *el, const char *flag) {
    return el_set(el, EL_SETTY, "-d", flag, NULL);
}

static inline int portolan_el_set_getc(EditLine *el, portolan_el_getc_t getc_) {
    return el_set(el, EL_GETCFN, getc_);
}

static inline int portolan_el_set_clientdata(EditLine *el, void *data) {
    return el_set(el, EL_CLIENTDATA, data);
}

static inline void *portolan_el_clientdata(EditLine *el) {
    void *data = NULL;
    el_get(el, EL_CLIENTDATA, &data);
    return data;
}

/// Redraws the prompt and the line (after something else was printed).
static inline int portolan_el_refresh(EditLine *el) {
    return el_set(el, EL_REFRESH);
}

static inline History *portolan_history_open(int size) {
    History *h = history_init();
    if (h == NULL) return NULL;
    HistEvent event;
    history(h, &event, H_SETSIZE, size);
    history(h, &event, H_SETUNIQUE, 1);
    return h;
}

static inline int portolan_history_enter(History *h, const char *line) {
    HistEvent event;
    return history(h, &event, H_ENTER, line);
}

static inline int portolan_history_load(History *h, const char *file) {
    HistEvent event;
    return history(h, &event, H_LOAD, file);
}

static inline int portolan_history_save(History *h, const char *file) {
    HistEvent event;
    return history(h, &event, H_SAVE, file);
}

#endif
