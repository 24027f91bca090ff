// memory_barriers.comp — a producer/consumer handoff inside a workgroup and across workgroups.
// Exercises: every GLSL barrier built-in (barrier, memoryBarrier, memoryBarrierShared, memoryBarrierBuffer,
// memoryBarrierImage, groupMemoryBarrier) and GL_KHR_memory_scope_semantics controlBarrier/memoryBarrier with
// explicit scopes and semantics, coherent/volatile buffers, atomicLoad/atomicStore with semantics.
#version 450
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) coherent buffer Mailbox { uint flag; uint payload[]; } mailbox;
layout(set = 0, binding = 1, r32f) uniform coherent image2D scratch_image;
layout(set = 0, binding = 2, std430) writeonly buffer Out { uint seen[]; };

shared uint staged[64];

void main() {
    uint lid = gl_LocalInvocationID.x;
    uint gid = gl_GlobalInvocationID.x;
    staged[lid] = gid * 3u;
    memoryBarrierShared();
    barrier();
    uint neighbour = staged[(lid + 1u) & 63u];
    mailbox.payload[gid] = neighbour;
    memoryBarrierBuffer();
    imageStore(scratch_image, ivec2(gid, 0), vec4(float(neighbour)));
    memoryBarrierImage();
    groupMemoryBarrier();
    memoryBarrier();
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsShared | gl_StorageSemanticsBuffer,
                   gl_SemanticsAcquireRelease);
    if (lid == 0u) {
        atomicStore(mailbox.flag, gl_WorkGroupID.x + 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer,
                    gl_SemanticsRelease);
    }
    memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquire);
    uint flag = atomicLoad(mailbox.flag, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquire);
    float img = imageLoad(scratch_image, ivec2((gid + 1u) & 63u, 0)).x;
    seen[gid] = flag + mailbox.payload[gid ^ 1u] + uint(img);
}
