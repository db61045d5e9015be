// The Delivery context's public face: its module, which the assembly wires, and its tables' entities, which the schema lists (no context imports delivery).
// What other contexts may import (.dependency-cruiser.cjs); inside delivery/, import files directly.
export { DeliveryModule } from './delivery.module';
export { DeliverySiteEntity } from './direct/entities/delivery-site.entity';
export { DeliverySiteLeaseEntity } from './direct/entities/delivery-site-lease.entity';
