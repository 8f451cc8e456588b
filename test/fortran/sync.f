! Fortran locks and waits. Locks: every PE adds to a counter on PE 0
! with a GET and a PUT under SHMEM_SET_LOCK (a lost update shows in the
! total), then again taking the lock with SHMEM_TEST_LOCK. Waits: a token
! goes round the ring with SHMEM_INT4_PUT... waited for with each wait
! routine in turn.
      PROGRAM SYNC
      INCLUDE 'mpp/shmem.fh'
      INTEGER SHMEM_MY_PE, SHMEM_N_PES, SHMEM_TEST_LOCK
      INTEGER LOCK, LOCKS(3)
      INTEGER*8 COUNT
      INTEGER IVAR
      INTEGER*4 I4VAR
      INTEGER*8 I8VAR
      COMMON /S/ LOCK, LOCKS, COUNT, IVAR, I4VAR, I8VAR
      INTEGER ME, NP, NEXT, I, K, TRIES
      INTEGER*8 V
      CALL SHMEM_INIT()
      ME = SHMEM_MY_PE()
      NP = SHMEM_N_PES()
      NEXT = MOD(ME + 1, NP)
      LOCK = 0
      COUNT = 0
      DO I = 1, 3
         LOCKS(I) = 0
      END DO
      IVAR = -1
      I4VAR = -1
      I8VAR = -1
      CALL SHMEM_BARRIER_ALL()

      DO I = 1, 20
         CALL SHMEM_SET_LOCK(LOCK)
         CALL SHMEM_GET8(V, COUNT, 1, 0)
         CALL SHMEM_PUT8(COUNT, V + ME + 1, 1, 0)
         CALL SHMEM_CLEAR_LOCK(LOCK)
      END DO
      TRIES = 0
      DO I = 1, 20
         K = MOD(I, 3) + 1
  10     IF (SHMEM_TEST_LOCK(LOCKS(K)) .NE. 0) THEN
            TRIES = TRIES + 1
            GO TO 10
         END IF
         CALL SHMEM_GET8(V, COUNT, 1, 0)
         CALL SHMEM_PUT8(COUNT, V + 1000, 1, 0)
         CALL SHMEM_CLEAR_LOCK(LOCKS(K))
      END DO
      CALL SHMEM_BARRIER_ALL()
      IF (ME .EQ. 0) THEN
!        three locks guard the second phase: updates may interleave
!        between them, so only the first phase's total is exact
         CALL CHECKL('SET_LOCK counter at least',
     &        COUNT .GE. 20 * NP * (NP + 1) / 2)
      END IF
      CALL SHMEM_BARRIER_ALL()
!     the first phase alone, exactly
      COUNT = 0
      CALL SHMEM_BARRIER_ALL()
      DO I = 1, 20
         CALL SHMEM_SET_LOCK(LOCKS(2))
         CALL SHMEM_GET8(V, COUNT, 1, 0)
         CALL SHMEM_PUT8(COUNT, V + ME + 1, 1, 0)
         CALL SHMEM_CLEAR_LOCK(LOCKS(2))
  20     IF (SHMEM_TEST_LOCK(LOCK) .NE. 0) GO TO 20
         CALL SHMEM_GET8(V, COUNT, 1, 0)
         CALL SHMEM_CLEAR_LOCK(LOCK)
      END DO
      CALL SHMEM_BARRIER_ALL()
      IF (ME .EQ. 0) CALL CHECKI('SET_LOCK counter', COUNT,
     &     INT(20 * NP * (NP + 1) / 2, 8))
      IF (ME .EQ. NP - 1) THEN
         CALL CHECKI('lock free again',
     &        INT(SHMEM_TEST_LOCK(LOCKS(1)), 8), 0_8)
         CALL CHECKI('lock held', INT(SHMEM_TEST_LOCK(LOCKS(1)), 8),
     &        1_8)
         CALL SHMEM_CLEAR_LOCK(LOCKS(1))
      END IF

!     a token round the ring: PE 0 starts, each PE waits for it from its
!     left neighbour and passes it on plus one, with each wait routine
      CALL SHMEM_BARRIER_ALL()
      DO K = 1, 6
         IVAR = -1
         I4VAR = -1
         I8VAR = -1
         CALL SHMEM_BARRIER_ALL()
         IF (ME .NE. 0) THEN
            IF (K .EQ. 1) CALL SHMEM_WAIT(IVAR, -1)
            IF (K .EQ. 2) CALL SHMEM_WAIT_UNTIL(IVAR, SHMEM_CMP_GE, 0)
            IF (K .EQ. 3) CALL SHMEM_INT4_WAIT(I4VAR, -1)
            IF (K .EQ. 4) CALL SHMEM_INT4_WAIT_UNTIL(I4VAR,
     &           SHMEM_CMP_EQ, ME - 1 + K)
            IF (K .EQ. 5) CALL SHMEM_INT8_WAIT(I8VAR, -1_8)
            IF (K .EQ. 6) CALL SHMEM_INT8_WAIT_UNTIL(I8VAR,
     &           SHMEM_CMP_GT, 2_8**40)
         END IF
         IF (K .LE. 2) THEN
            IF (ME .NE. 0) CALL CHECKI('WAIT token', INT(IVAR, 8),
     &           INT(ME - 1 + K, 8))
            IF (NEXT .NE. 0) CALL SHMEM_INTEGER_PUT(IVAR, ME + K, 1,
     &           NEXT)
         ELSE IF (K .LE. 4) THEN
            IF (ME .NE. 0) CALL CHECKI('INT4_WAIT token', INT(I4VAR, 8),
     &           INT(ME - 1 + K, 8))
            IF (NEXT .NE. 0) CALL SHMEM_INT4_SET(I4VAR, ME + K, NEXT)
         ELSE
            IF (ME .NE. 0) CALL CHECKI('INT8_WAIT token', I8VAR,
     &           2_8**40 + ME - 1 + K)
            IF (NEXT .NE. 0) CALL SHMEM_INT8_SET(I8VAR,
     &           2_8**40 + ME + K, NEXT)
         END IF
         CALL SHMEM_BARRIER_ALL()
      END DO
      CALL SHMEM_FENCE()
      CALL PASSED
      CALL SHMEM_FINALIZE()
      END
