! Fortran symmetric heap and queries: SHPALLOC, SHPCLMOVE and SHPDEALLC
! with Cray pointers (-fcray-pointer) and their error codes; SHMEM_PTR,
! SHMEM_PE_ACCESSIBLE, SHMEM_ADDR_ACCESSIBLE, SHMEM_INFO_GET_VERSION and
! _NAME, MY_PE, NUM_PES and the cache routines.
      PROGRAM MEM
      INCLUDE 'mpp/shmem.fh'
      INTEGER SHMEM_MY_PE, SHMEM_N_PES
      INTEGER A(1), B(1), R(1)
      POINTER (PA, A)
      POINTER (PB, B)
      POINTER (PR, R)
      INTEGER*8 TARG(4)
      INTEGER*8 NOTSYM
      COMMON /M/ TARG
      INTEGER ME, NP, NEXT, I, ERR, ST
      INTEGER*8 OLD
      INTEGER MAJ, MIN
      CHARACTER*(SHMEM_MAX_NAME_LEN) NAME
      CHARACTER*4 SHORT
      CALL START_PES(0)
      ME = MY_PE()
      NP = NUM_PES()
      CALL CHECKI('MY_PE', INT(ME, 8), INT(SHMEM_MY_PE(), 8))
      CALL CHECKI('NUM_PES', INT(NP, 8), INT(SHMEM_N_PES(), 8))
      NEXT = MOD(ME + 1, NP)

!     100 words; the next PE's block gets my numbers
      CALL SHPALLOC(PA, 100, ERR, 0)
      CALL CHECKI('SHPALLOC errcode', INT(ERR, 8), 0_8)
      DO I = 1, 100
         A(I) = -1
      END DO
      CALL SHMEM_BARRIER_ALL()
      CALL SHMEM_INTEGER_PUT(A, (/ (ME * 1000 + I, I = 1, 100) /), 100,
     &     NEXT)
      CALL SHMEM_BARRIER_ALL()
      DO I = 1, 100
         CALL CHECKI('SHPALLOC block', INT(A(I), 8),
     &        INT(MOD(ME + NP - 1, NP) * 1000 + I, 8))
      END DO

!     grow it: the contents stay; status 0 (in place) or 1 (moved)
      OLD = PA
      CALL SHPALLOC(PB, 10, ERR, 0)
      CALL SHPCLMOVE(PA, 5000, ST, 0)
      CALL CHECKL('SHPCLMOVE status 0 or 1', ST .EQ. 0 .OR. ST .EQ. 1)
      CALL CHECKL('SHPCLMOVE status says whether it moved',
     &     (ST .EQ. 1) .EQV. (PA .NE. OLD))
      DO I = 1, 100
         CALL CHECKI('SHPCLMOVE kept', INT(A(I), 8),
     &        INT(MOD(ME + NP - 1, NP) * 1000 + I, 8))
      END DO
      A(5000) = ME
      CALL SHMEM_BARRIER_ALL()
      CALL SHMEM_INTEGER_GET(I, A(5000), 1, NEXT)
      CALL CHECKI('SHPCLMOVE new end', INT(I, 8), INT(NEXT, 8))

!     error codes, with abort = 0
      CALL SHPALLOC(PR, 0, ERR, 0)
      CALL CHECKI('SHPALLOC length 0', INT(ERR, 8), -1_8)
      CALL SHPALLOC(PR, -3, ERR, 0)
      CALL CHECKI('SHPALLOC length -3', INT(ERR, 8), -1_8)
      CALL SHPALLOC(PR, 2000000000, ERR, 0)
      CALL CHECKI('SHPALLOC too big', INT(ERR, 8), -2_8)
      CALL SHPCLMOVE(PA, 0, ST, 0)
      CALL CHECKI('SHPCLMOVE length 0', INT(ST, 8), -1_8)
      PR = LOC(TARG)
      CALL SHPDEALLC(PR, ERR, 0)
      CALL CHECKI('SHPDEALLC outside the heap', INT(ERR, 8), -3_8)
      PR = PA + 8
      CALL SHPDEALLC(PR, ERR, 0)
      CALL CHECKI('SHPDEALLC inside a block', INT(ERR, 8), -5_8)
      CALL SHPDEALLC(PB, ERR, 0)
      CALL CHECKI('SHPDEALLC', INT(ERR, 8), 0_8)
      CALL SHPDEALLC(PB, ERR, 0)
      CALL CHECKI('SHPDEALLC twice', INT(ERR, 8), -4_8)
      CALL SHPCLMOVE(PB, 10, ST, 0)
      CALL CHECKI('SHPCLMOVE of a free block', INT(ST, 8), -4_8)
      CALL SHPDEALLC(PA, ERR, 0)
      CALL CHECKI('SHPDEALLC grown block', INT(ERR, 8), 0_8)

!     SHMEM_PTR: every PE of this node is reachable with loads/stores
      TARG(1) = ME
      CALL SHMEM_BARRIER_ALL()
      PR = SHMEM_PTR(TARG, NEXT)
      CALL CHECKL('SHMEM_PTR not null', PR .NE. 0)
      CALL CHECKI('load through SHMEM_PTR', INT(R(1), 8), INT(NEXT, 8))
      CALL CHECKL('SHMEM_PE_ACCESSIBLE', SHMEM_PE_ACCESSIBLE(NEXT))
      CALL CHECKL('SHMEM_PE_ACCESSIBLE(NP)',
     &     .NOT. SHMEM_PE_ACCESSIBLE(NP))
      CALL CHECKL('SHMEM_ADDR_ACCESSIBLE',
     &     SHMEM_ADDR_ACCESSIBLE(TARG, NEXT))
      CALL CHECKL('SHMEM_ADDR_ACCESSIBLE of a local',
     &     .NOT. SHMEM_ADDR_ACCESSIBLE(NOTSYM, NEXT))

      CALL SHMEM_INFO_GET_VERSION(MAJ, MIN)
      CALL CHECKI('version major', INT(MAJ, 8),
     &     INT(SHMEM_MAJOR_VERSION, 8))
      CALL CHECKI('version minor', INT(MIN, 8),
     &     INT(SHMEM_MINOR_VERSION, 8))
      CALL SHMEM_INFO_GET_NAME(NAME)
      CALL CHECKL('name is SHMEM_VENDOR_STRING, blank-padded',
     &     NAME .EQ. SHMEM_VENDOR_STRING)
      CALL SHMEM_INFO_GET_NAME(SHORT)
      CALL CHECKL('name cut to a short variable',
     &     SHORT .EQ. SHMEM_VENDOR_STRING(1:4))

      CALL SHMEM_CLEAR_CACHE_INV()
      CALL SHMEM_SET_CACHE_INV()
      CALL SHMEM_SET_CACHE_LINE_INV(TARG)
      CALL SHMEM_UDCFLUSH()
      CALL SHMEM_UDCFLUSH_LINE(TARG)
      CALL PASSED
      CALL SHMEM_FINALIZE()
      END
