! Checks shared by the Fortran tests (fixed form, like the programs the
! SHMEM pages were written for). A failed check prints, on stdout,
!   PE <n>: <what>: expected <e>, got <g>
! the line run_pe_test.cmake looks for, and ends the job with status 1.
! PASSED prints, on PE 0 only, the line every multi-PE test must print.

      SUBROUTINE CHECKI(WHAT, GOT, EXPECT)
      INCLUDE 'mpp/shmem.fh'
      INTEGER SHMEM_MY_PE
      CHARACTER*(*) WHAT
      INTEGER*8 GOT, EXPECT
      IF (GOT .NE. EXPECT) THEN
         PRINT '(A,I0,4A,I0,A,I0)', 'PE ', SHMEM_MY_PE(), ': ', WHAT,
     &        ': ', 'expected ', EXPECT, ', got ', GOT
         CALL SHMEM_GLOBAL_EXIT(1)
      END IF
      END

      SUBROUTINE CHECKR(WHAT, GOT, EXPECT)
      INCLUDE 'mpp/shmem.fh'
      INTEGER SHMEM_MY_PE
      CHARACTER*(*) WHAT
      REAL*8 GOT, EXPECT
      IF (GOT .NE. EXPECT) THEN
         PRINT '(A,I0,4A,G0,A,G0)', 'PE ', SHMEM_MY_PE(), ': ', WHAT,
     &        ': ', 'expected ', EXPECT, ', got ', GOT
         CALL SHMEM_GLOBAL_EXIT(1)
      END IF
      END

      SUBROUTINE CHECKL(WHAT, OK)
      INCLUDE 'mpp/shmem.fh'
      INTEGER SHMEM_MY_PE
      CHARACTER*(*) WHAT
      LOGICAL OK
      IF (.NOT. OK) THEN
         PRINT '(A,I0,4A)', 'PE ', SHMEM_MY_PE(), ': ', WHAT,
     &        ': ', 'expected true, got false'
         CALL SHMEM_GLOBAL_EXIT(1)
      END IF
      END

      SUBROUTINE PASSED
      INCLUDE 'mpp/shmem.fh'
      INTEGER SHMEM_MY_PE, SHMEM_N_PES
      CALL SHMEM_BARRIER_ALL()
      IF (SHMEM_MY_PE() .EQ. 0) THEN
         PRINT '(A,I0,A)', 'all checks passed on ', SHMEM_N_PES(),
     &        ' PEs'
      END IF
      END
