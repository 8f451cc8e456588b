/*
 * Follows the OpenSHMEM 1.6 specification's example_code/shmem_team_translate_pe.c:
 * the even PEs form a team (shmem_team_split_strided, (NP + 1) / 2
 * members); each member translates its team number back to
 * SHMEM_TEAM_WORLD and calls shmem_global_exit(1) unless it gets its own
 * world number. Added for the test: each PE prints the translation, or
 * that it is not in the team. (The spec's shmem_team_translate.c is a
 * pre-1.5 draft of this program and is not a test here.)
 */
#include <shmem.h>
#include <stddef.h>
#include <stdio.h>

int main(void) {
  int my_pe;
  int npes;
  int t_pe;
  int t_global;
  shmem_team_t new_team;
  shmem_team_config_t *config;

  shmem_init();
  config = NULL;
  my_pe = shmem_my_pe();
  npes = shmem_n_pes();

  shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, config, 0,
                           &new_team);

  if (new_team != SHMEM_TEAM_INVALID) {
    t_pe = shmem_team_my_pe(new_team);
    t_global = shmem_team_translate_pe(new_team, t_pe, SHMEM_TEAM_WORLD);

    if (t_global != my_pe) {
      shmem_global_exit(1);
    }
    printf("%d: team pe %d is world pe %d\n", my_pe, t_pe, t_global); /* added */
  } else {
    printf("%d: not in new_team\n", my_pe); /* added */
  }

  shmem_finalize();
  return 0;
}
