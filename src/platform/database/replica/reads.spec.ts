import { automock } from '../../../../test/support/automock';
import { Metrics } from '../../metrics/metrics';
import { PreparedStatements } from '../prepared-statements';
import { ReadReplica, ReplicaState } from './read-replica';
import { Reads } from './reads';
import { RecentWrites } from './recent-writes';

const OWNER = 'user-1';
const SQL = 'SELECT 1';

describe('Reads', () => {
  let primary: jest.Mocked<PreparedStatements>;
  let replica: jest.Mocked<ReadReplica>;
  let recentWrites: jest.Mocked<RecentWrites>;
  let metrics: Metrics;
  let sut: Reads;

  const given = (state: ReplicaState, configured = true) => {
    Object.defineProperty(replica, 'configured', { value: configured });
    replica.state.mockReturnValue(state);
  };
  const counted = async () =>
    (await metrics.databaseReads.get()).values.map(({ labels, value }) => ({ ...labels, value }));

  beforeEach(() => {
    primary = automock<PreparedStatements>('primary');
    replica = automock<ReadReplica>('replica');
    recentWrites = automock<RecentWrites>('recentWrites');
    metrics = new Metrics(undefined as never, undefined as never);
    primary.query.mockResolvedValue([{ from: 'primary' }]);
    replica.query.mockResolvedValue([{ from: 'replica' }]);
    replica.failed.mockReturnValue(undefined);
    recentWrites.wroteLately.mockResolvedValue(false);
    sut = new Reads(primary, replica, recentWrites, metrics);
  });

  it("reads an API request's data on a replica within the lag bound, for an owner who has not written lately", async () => {
    given({ usable: true, lagMs: 40 });

    const rows = await sut.scope(OWNER, () => sut.query(OWNER, SQL, []));

    expect(rows).toEqual([{ from: 'replica' }]);
    expect(await counted()).toEqual([{ target: 'replica', reason: 'replica', value: 1 }]);
  });

  it('reads on the primary outside a request (a worker) and for another owner than the request’s', async () => {
    given({ usable: true, lagMs: 0 });

    expect(await sut.query(OWNER, SQL, [])).toEqual([{ from: 'primary' }]);
    expect(await sut.scope(OWNER, () => sut.query('user-2', SQL, []))).toEqual([{ from: 'primary' }]);
    expect(replica.query).not.toHaveBeenCalled();
    expect(await counted()).toEqual([{ target: 'primary', reason: 'internal', value: 2 }]);
  });

  it.each<[ReplicaState, string]>([
    [{ usable: false, why: 'lagging' }, 'lagging'],
    [{ usable: false, why: 'unavailable' }, 'unavailable'],
  ])('reads on the primary when the replica is %j, without asking who wrote', async (state, reason) => {
    given(state);

    expect(await sut.scope(OWNER, () => sut.query(OWNER, SQL, []))).toEqual([{ from: 'primary' }]);
    expect(recentWrites.wroteLately).not.toHaveBeenCalled();
    expect(await counted()).toEqual([{ target: 'primary', reason, value: 1 }]);
  });

  it('reads on the primary for an owner who wrote lately, asking once per request', async () => {
    given({ usable: true, lagMs: 0 });
    recentWrites.wroteLately.mockResolvedValue(true);

    await sut.scope(OWNER, async () => {
      expect(await sut.query(OWNER, SQL, [])).toEqual([{ from: 'primary' }]);
      expect(await sut.query(OWNER, SQL, [])).toEqual([{ from: 'primary' }]);
    });

    expect(recentWrites.wroteLately).toHaveBeenCalledTimes(1);
    expect(await counted()).toEqual([{ target: 'primary', reason: 'own_write', value: 2 }]);
  });

  it('runs a read the replica fails again on the primary, and tells the replica why', async () => {
    given({ usable: true, lagMs: 0 });
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5433'), { code: 'ECONNREFUSED' });
    replica.query.mockRejectedValue(refused);

    expect(await sut.scope(OWNER, () => sut.query(OWNER, SQL, []))).toEqual([{ from: 'primary' }]);
    expect(replica.failed).toHaveBeenCalledWith(refused);
    expect(await counted()).toEqual([{ target: 'primary', reason: 'replica_error', value: 1 }]);
  });

  it('keeps the route a request took first, while the replica turns unusable (a list and its count agree)', async () => {
    given({ usable: true, lagMs: 0 });

    await sut.scope(OWNER, async () => {
      expect(await sut.query(OWNER, SQL, [])).toEqual([{ from: 'replica' }]);
      given({ usable: false, why: 'lagging' });
      expect(await sut.query(OWNER, SQL, [])).toEqual([{ from: 'replica' }]);
    });
    // The next request decides again.
    expect(await sut.scope(OWNER, () => sut.query(OWNER, SQL, []))).toEqual([{ from: 'primary' }]);
    expect(recentWrites.wroteLately).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['misses a row', () => replica.query.mockResolvedValueOnce([])],
    ['fails', () => replica.query.mockRejectedValueOnce(new Error('Query read timeout'))],
  ])(
    'reads the rest of a request on the primary once the replica %s (a mail found there has its parts there)',
    async (_, once) => {
      given({ usable: true, lagMs: 0 });
      once();

      await sut.scope(OWNER, async () => {
        expect(await sut.findOne(OWNER, SQL, [])).toEqual({ from: 'primary' });
        expect(await sut.query(OWNER, SQL, [])).toEqual([{ from: 'primary' }]);
      });

      expect(replica.query).toHaveBeenCalledTimes(1);
      expect((await counted()).map(({ target, value }) => [target, value])).toEqual([['primary', 2]]);
    },
  );

  describe('findOne', () => {
    it('takes the row the replica has', async () => {
      given({ usable: true, lagMs: 0 });

      expect(await sut.scope(OWNER, () => sut.findOne(OWNER, SQL, []))).toEqual({ from: 'replica' });
      expect(primary.query).not.toHaveBeenCalled();
    });

    it('looks on the primary for a row the replica does not have yet', async () => {
      given({ usable: true, lagMs: 0 });
      replica.query.mockResolvedValue([]);

      expect(await sut.scope(OWNER, () => sut.findOne(OWNER, SQL, []))).toEqual({ from: 'primary' });
      expect(await counted()).toEqual([{ target: 'primary', reason: 'replica_miss', value: 1 }]);
    });

    it('is undefined for a row neither has', async () => {
      given({ usable: true, lagMs: 0 });
      replica.query.mockResolvedValue([]);
      primary.query.mockResolvedValue([]);

      expect(await sut.scope(OWNER, () => sut.findOne(OWNER, SQL, []))).toBeUndefined();
    });

    it('runs a read the replica fails again on the primary', async () => {
      given({ usable: true, lagMs: 0 });
      replica.query.mockRejectedValue(new Error('Query read timeout'));

      expect(await sut.scope(OWNER, () => sut.findOne(OWNER, SQL, []))).toEqual({ from: 'primary' });
      expect(await counted()).toEqual([{ target: 'primary', reason: 'replica_error', value: 1 }]);
    });
  });

  it('counts nothing without a replica, where every read is the primary’s', async () => {
    given({ usable: false, why: 'unavailable' }, false);

    expect(await sut.scope(OWNER, () => sut.query(OWNER, SQL, []))).toEqual([{ from: 'primary' }]);
    expect(await counted()).toEqual([]);
  });
});
