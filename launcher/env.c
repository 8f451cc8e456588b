/*
 * Environment arrays for the PEs. They are built in the parent, before
 * fork, because only async-signal-safe calls are allowed in a child of a
 * threaded process (and the PMIx server runs threads). Every string is
 * malloc'd since PMIx_server_setup_fork adds to and replaces entries.
 */
#include "oshrun.h"

#include <stdlib.h>
#include <string.h>

extern char **environ;

static size_t ush_run_env_count(char *const *env)
{
    size_t n = 0;
    while (env && env[n]) {
        n++;
    }
    return n;
}

/* oshrun's own environment, minus the PMIx contact variables of whatever
 * started oshrun (a batch system, another launcher): a PE must talk to this
 * server only. PMIX_MCA_* are settings, not contact details, and stay. */
char **ush_run_env_from_environ(void)
{
    size_t n = ush_run_env_count(environ), k = 0;
    char **env = calloc(n + 1, sizeof(char *));

    if (env == NULL) {
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        if (strncmp(environ[i], "PMIX_", 5) == 0 &&
            strncmp(environ[i], "PMIX_MCA_", 9) != 0) {
            continue;
        }
        if ((env[k++] = strdup(environ[i])) == NULL) {
            ush_run_env_free(env);
            return NULL;
        }
    }
    return env;
}

char **ush_run_env_dup(char *const *src)
{
    size_t n   = ush_run_env_count(src);
    char **env = calloc(n + 1, sizeof(char *));

    if (env == NULL) {
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        if ((env[i] = strdup(src[i])) == NULL) {
            ush_run_env_free(env);
            return NULL;
        }
    }
    return env;
}

/* Replace NAME's entry, or append one. */
ush_run_status_t ush_run_env_set(char ***envp, const char *name, const char *value)
{
    size_t nlen = strlen(name);
    size_t n    = ush_run_env_count(*envp);
    char  *entry = malloc(nlen + strlen(value) + 2);

    if (entry == NULL) {
        return USH_RUN_ERR_NOMEM;
    }
    strcpy(entry, name);
    entry[nlen] = '=';
    strcpy(entry + nlen + 1, value);

    for (size_t i = 0; i < n; i++) {
        if (strncmp((*envp)[i], name, nlen) == 0 && (*envp)[i][nlen] == '=') {
            free((*envp)[i]);
            (*envp)[i] = entry;
            return USH_RUN_OK;
        }
    }
    char **grown = realloc(*envp, (n + 2) * sizeof(char *));
    if (grown == NULL) {
        free(entry);
        return USH_RUN_ERR_NOMEM;
    }
    grown[n]     = entry;
    grown[n + 1] = NULL;
    *envp        = grown;
    return USH_RUN_OK;
}

void ush_run_env_free(char **env)
{
    for (size_t i = 0; env && env[i]; i++) {
        free(env[i]);
    }
    free(env);
}
