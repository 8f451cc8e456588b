! Fortran atomics: every PE works on PE 0's counters (and its right
! neighbour's, for the fetching forms), so the results depend on all
! PEs' operations landing exactly once.
      PROGRAM AMO
      INCLUDE 'mpp/shmem.fh'
      INTEGER SHMEM_MY_PE, SHMEM_N_PES, SHMEM_SWAP
      INTEGER*4 SHMEM_INT4_CSWAP, SHMEM_INT4_FADD, SHMEM_INT4_FETCH
      INTEGER*4 SHMEM_INT4_FINC, SHMEM_INT4_SWAP
      INTEGER*8 SHMEM_INT8_CSWAP, SHMEM_INT8_FADD, SHMEM_INT8_FETCH
      INTEGER*8 SHMEM_INT8_FINC, SHMEM_INT8_SWAP
      REAL*4 SHMEM_REAL4_FETCH, SHMEM_REAL4_SWAP
      REAL*8 SHMEM_REAL8_FETCH, SHMEM_REAL8_SWAP
      INTEGER*4 C4, F4, W4
      INTEGER*8 C8, F8, W8
      REAL*4 R4
      REAL*8 R8
      INTEGER IS
      COMMON /A/ C4, F4, W4, C8, F8, W8, R4, R8, IS
      INTEGER ME, NP, NEXT, PREV, I
      INTEGER*4 O4
      INTEGER*8 O8
      REAL*4 OR4
      REAL*8 OR8
      INTEGER OI
      CALL SHMEM_INIT()
      ME = SHMEM_MY_PE()
      NP = SHMEM_N_PES()
      NEXT = MOD(ME + 1, NP)
      PREV = MOD(ME + NP - 1, NP)
      C4 = 0
      C8 = 0
      F4 = 0
      F8 = 0
      W4 = ME
      W8 = ME * 2_8**40
      R4 = ME
      R8 = ME
      IS = ME
      CALL SHMEM_BARRIER_ALL()

!     on PE 0: each PE adds me+1 and increments, three times
      DO I = 1, 3
         CALL SHMEM_INT4_ADD(C4, ME + 1, 0)
         CALL SHMEM_INT4_INC(C4, 0)
         CALL SHMEM_INT8_ADD(C8, INT(ME + 1, 8) * 2_8**33, 0)
         CALL SHMEM_INT8_INC(C8, 0)
         O4 = SHMEM_INT4_FADD(F4, 2, 0)
         O4 = SHMEM_INT4_FINC(F4, 0)
         O8 = SHMEM_INT8_FADD(F8, 2_8**34, 0)
         O8 = SHMEM_INT8_FINC(F8, 0)
      END DO
      CALL SHMEM_BARRIER_ALL()
      IF (ME .EQ. 0) THEN
         CALL CHECKI('INT4_ADD/INC total', INT(C4, 8),
     &        INT(3 * (NP * (NP + 1) / 2 + NP), 8))
         CALL CHECKI('INT8_ADD/INC total', C8,
     &        3 * (NP * (NP + 1) / 2 * 2_8**33 + NP))
         CALL CHECKI('INT4_FADD/FINC total', INT(F4, 8),
     &        INT(9 * NP, 8))
         CALL CHECKI('INT8_FADD/FINC total', F8, 3 * NP * (2_8**34 + 1))
      END IF
      CALL CHECKI('INT4_FETCH', INT(SHMEM_INT4_FETCH(F4, 0), 8),
     &     INT(9 * NP, 8))
      CALL CHECKI('INT8_FETCH', SHMEM_INT8_FETCH(F8, 0),
     &     3 * NP * (2_8**34 + 1))

!     on the next PE: swap in my number, getting the previous owner's;
!     then compare-and-swap it back only if it still holds mine
      CALL SHMEM_BARRIER_ALL()
      O4 = SHMEM_INT4_SWAP(W4, 100 + ME, NEXT)
      CALL CHECKI('INT4_SWAP old', INT(O4, 8), INT(NEXT, 8))
      O8 = SHMEM_INT8_SWAP(W8, 100_8 + ME, NEXT)
      CALL CHECKI('INT8_SWAP old', O8, NEXT * 2_8**40)
      OR4 = SHMEM_REAL4_SWAP(R4, 0.5 + ME, NEXT)
      CALL CHECKR('REAL4_SWAP old', DBLE(OR4), DBLE(NEXT))
      OR8 = SHMEM_REAL8_SWAP(R8, 0.25D0 + ME, NEXT)
      CALL CHECKR('REAL8_SWAP old', OR8, DBLE(NEXT))
      OI = SHMEM_SWAP(IS, 7 * ME, NEXT)
      CALL CHECKI('SWAP old', INT(OI, 8), INT(NEXT, 8))
      CALL SHMEM_BARRIER_ALL()
      CALL CHECKI('INT4_SWAP new', INT(W4, 8), INT(100 + PREV, 8))
      CALL CHECKR('REAL4_SWAP new', DBLE(R4), DBLE(0.5 + PREV))
      CALL CHECKR('REAL8_SWAP new', R8, 0.25D0 + PREV)
      CALL CHECKI('SWAP new', INT(IS, 8), INT(7 * PREV, 8))
      CALL CHECKR('REAL4_FETCH', DBLE(SHMEM_REAL4_FETCH(R4, NEXT)),
     &     DBLE(0.5 + ME))
      CALL CHECKR('REAL8_FETCH', SHMEM_REAL8_FETCH(R8, NEXT),
     &     0.25D0 + ME)
      CALL SHMEM_BARRIER_ALL()
      O4 = SHMEM_INT4_CSWAP(W4, 100 + ME, -ME, NEXT)
      CALL CHECKI('INT4_CSWAP old', INT(O4, 8), INT(100 + ME, 8))
      O4 = SHMEM_INT4_CSWAP(W4, 12345, 999, NEXT)
      CALL CHECKI('INT4_CSWAP refused', INT(O4, 8), INT(-ME, 8))
      O8 = SHMEM_INT8_CSWAP(W8, 100_8 + ME, -2_8**40, NEXT)
      CALL CHECKI('INT8_CSWAP old', O8, 100_8 + ME)
      CALL SHMEM_BARRIER_ALL()
      CALL CHECKI('INT4_CSWAP new', INT(W4, 8), INT(-PREV, 8))
      CALL CHECKI('INT8_CSWAP new', W8, -2_8**40)

!     SET, then FETCH from the next PE
      CALL SHMEM_BARRIER_ALL()
      CALL SHMEM_INT4_SET(W4, 40 + ME, NEXT)
      CALL SHMEM_INT8_SET(W8, 2_8**41 + ME, NEXT)
      CALL SHMEM_REAL4_SET(R4, 1.25 * ME, NEXT)
      CALL SHMEM_REAL8_SET(R8, -1.5D0 * ME, NEXT)
      CALL SHMEM_BARRIER_ALL()
      CALL CHECKI('INT4_SET', INT(SHMEM_INT4_FETCH(W4, NEXT), 8),
     &     INT(40 + ME, 8))
      CALL CHECKI('INT8_SET', SHMEM_INT8_FETCH(W8, NEXT), 2_8**41 + ME)
      CALL CHECKR('REAL4_SET', DBLE(R4), DBLE(1.25 * PREV))
      CALL CHECKR('REAL8_SET', R8, -1.5D0 * PREV)
      CALL PASSED
      CALL SHMEM_FINALIZE()
      END
