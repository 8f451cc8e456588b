! The SGI max-reduction page's Example 1, as it is written, for a
! compiler whose REAL is 64 bits (Cray's; here -fdefault-real-8, which
! CMake passes for this file): INCLUDE "mpp/shmem.fh", a DATA-initialised
! pSync and the maximum of FOO over the even PEs with SHMEM_REAL8_MAX_TO_ALL.
! Two changes: the page's Cray intrinsics MY_PE() and N$PES become the
! functions MY_PE() and NUM_PES() of mpp/shmem.fh (so no INTRINSIC
! line), and the set is (N$PES+1)/2 PEs so that 1 and 3 PEs work too.
! The page's text lost its underscores (SHMEMREDUCESYNCSIZE): put back.
      PROGRAM MAXEX
      INCLUDE "mpp/shmem.fh"

      INTEGER PSYNC(SHMEM_REDUCE_SYNC_SIZE)
      DATA PSYNC /SHMEM_REDUCE_SYNC_SIZE*SHMEM_SYNC_VALUE/
      PARAMETER (NR=1)
      REAL FOO, FOOMAX, PWRK(MAX(NR/2+1,SHMEM_REDUCE_MIN_WRKDATA_SIZE))
      COMMON /COM/ FOO, FOOMAX, PWRK
      INTEGER NPES

      CALL START_PES(0)
      NPES = NUM_PES()
      FOO = 1.5 * MY_PE()
      FOOMAX = -1
      CALL SHMEM_BARRIER_ALL()
      IF ( MOD(MY_PE(),2) .EQ. 0) THEN
      CALL SHMEM_REAL8_MAX_TO_ALL(FOOMAX, FOO, NR, 0, 1, (NPES+1)/2,
     &   PWRK, PSYNC)
      PRINT*,'Result on PE ',MY_PE(),' is ',FOOMAX
      CALL CHECKR('max of FOO over the even PEs', DBLE(FOOMAX),
     &     1.5D0 * (2 * ((NPES + 1) / 2) - 2))
      ELSE
      CALL CHECKR('FOOMAX of an odd PE', DBLE(FOOMAX), -1D0)
      ENDIF
      CALL PASSED
      END
